import { ConnectorRegistry, defineConnector } from '@toolgate/toolkit';
import { growth, LINEAR_GROWTH_LIMIT } from '@toolgate/toolkit/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sharedVariableNamespace, tenantVariablePrefix } from './config/tenant-variables.js';
import { placeholdersIn } from './config/variables.js';
import { TenantChange, type TenantFields } from './tenant-change.js';

const registry = new ConnectorRegistry();
registry.register(
  defineConnector({
    name: 'erp',
    configSchema: z.object({
      baseUrl: z.string(),
      client: z.string(),
      password: z.string(),
      mirror: z.string(),
    }),
    secretFields: ['password'],
    endpointFields: ['baseUrl'],
    create: () => ({}),
  }),
  'spec',
);

const base: TenantFields = {
  name: 'ACME',
  locale: null,
  connectors: {
    erp: { baseUrl: 'https://erp', client: '100', password: '${TOOLGATE_T_ACME__ERP:-demo}', mirror: 'none' },
  },
  settings: { audit: { redaction: { mode: 'mask' } } },
};
const edit = (f: (t: any) => void): TenantFields => {
  const copy = structuredClone(base) as any;
  f(copy);
  return copy;
};

describe('TenantChange', () => {
  it('lists every changed value by path', () => {
    const change = new TenantChange(
      base,
      edit((t) => {
        t.settings.audit.redaction.mode = 'fingerprint';
        t.settings.quotas = [{ perMinute: 5 }];
        t.connectors.erp.client = '200';
      }),
      registry,
    );
    expect(change.forAudit()).toEqual([
      { path: 'connectors.erp.client', before: '100', after: '200' },
      { path: 'settings.audit.redaction.mode', before: 'mask', after: 'fingerprint' },
      { path: 'settings.quotas', after: [{ perMinute: 5 }] },
    ]);
    expect(change.platformOnly()).toEqual([]);
  });

  it('keeps endpoints, secrets, placeholders and the set of connectors for platform admins', () => {
    const refused = (f: (t: any) => void) =>
      new TenantChange(base, edit(f), registry).platformOnly().map((r) => r.path);
    expect(refused((t) => (t.connectors.erp.baseUrl = 'https://evil'))).toEqual(['connectors.erp.baseUrl']);
    expect(refused((t) => (t.connectors.erp.mirror = 'http://evil'))).toEqual(['connectors.erp.mirror']);
    expect(refused((t) => (t.connectors.erp.password = 'x'))).toEqual(['connectors.erp.password']);
    expect(refused((t) => (t.connectors.erp.client = '${TOOLGATE_T_ACME__ERP}'))).toEqual([
      'connectors.erp.client',
    ]);
    expect(refused((t) => (t.connectors.other = { a: 1 }))).toEqual(['connectors.other']);
    expect(refused((t) => delete t.connectors.erp)).toEqual(['connectors.erp']);
    // Where a connector processes data (ADR 047): moving it "home" would switch the cross-border guard off.
    expect(refused((t) => (t.connectors.erp.region = 'CN'))).toEqual(['connectors.erp.region']);
  });

  it('keeps mapping Feishu users to people for platform admins; a tenant admin may only remove one', () => {
    const dana = { subject: 'dana', provider: 'oidc', role: 'approver' };
    const mapped = (users: Record<string, unknown>) =>
      edit((t) => (t.settings.notifications = { feishu: { encryptKeyEnv: 'K', users } }));
    const refused = (from: TenantFields, to: TenantFields) =>
      new TenantChange(from, to, registry).platformOnly().map((r) => r.path);
    const path = 'settings.notifications.feishu.users.ou_1';
    // Added with the whole section, added to it, or pointed at another person: all refused.
    expect(refused(base, mapped({ ou_1: dana }))).toEqual([path]);
    expect(refused(mapped({}), mapped({ ou_1: dana }))).toEqual([path]);
    expect(refused(mapped({ ou_1: dana }), mapped({ ou_1: { ...dana, subject: 'erin' } }))).toEqual([path]);
    expect(refused(mapped({ ou_1: dana }), mapped({ ou_1: { ...dana, role: 'tenant_admin' } }))).toEqual([
      path,
    ]);
    expect(refused(mapped({ ou_1: dana }), mapped({}))).toEqual([]);
    expect(refused(mapped({ ou_1: dana }), mapped({ ou_1: { ...dana } }))).toEqual([]);
  });

  it('shows a secret only as its placeholder, never a literal or a default', () => {
    const change = new TenantChange(
      base,
      edit((t) => (t.connectors.erp.password = 'hunter2')),
      registry,
    );
    expect(change.forAudit()).toEqual([
      { path: 'connectors.erp.password', before: '${TOOLGATE_T_ACME__ERP:-[REDACTED]}', after: '[REDACTED]' },
    ]);
  });
});

describe('tenant variables', () => {
  it('reserves TOOLGATE_T_<TENANT>__ and finds tenants that would share it', () => {
    expect(tenantVariablePrefix('acme')).toBe('TOOLGATE_T_ACME__');
    expect(tenantVariablePrefix('north-east')).toBe('TOOLGATE_T_NORTH_EAST__');
    expect(sharedVariableNamespace('north_east', ['acme', 'north-east'])).toBe('north-east');
    expect(sharedVariableNamespace('acme_ops', ['acme'])).toBeUndefined();
  });
});

describe('placeholders on hostile text', () => {
  // Hang guard: 18 reads of up to 1 MiB outlast the default 5 s on a loaded machine.
  it('stay linear: 4× the unclosed placeholders cost about 4× as much', { timeout: 60_000 }, () => {
    const hostile = (n: number) => '${A:-'.repeat(n);
    expect(placeholdersIn(hostile(200_000))).toEqual([]);
    const read = (password: string) => {
      placeholdersIn(password);
      new TenantChange(
        base,
        edit((t) => (t.connectors.erp.password = password)),
        registry,
      ).forAudit();
    };
    // In CPU time, n → 4n in the same minute: the machine's speed cancels out (a quadratic scan
    // grows 16×; the absolute time was a 200 ms bound before issue 27).
    const grew = growth(hostile, read, 50_000);
    expect(grew.ratio, `CPU ms ${grew.costsMs.join(' → ')}`).toBeLessThanOrEqual(LINEAR_GROWTH_LIMIT);
  });

  it('leaves adding compliance parts to a tenant admin, and removing one to a platform admin (ADR 048)', () => {
    const on = edit((t) => (t.settings.compliance = { crossBorderGuard: true }));
    const refused = (before: TenantFields, after: TenantFields) =>
      new TenantChange(before, after, registry).platformOnly().map((r) => r.path);
    expect(refused(base, on)).toEqual([]);
    expect(
      refused(
        on,
        edit((t) => (t.settings.compliance = { crossBorderGuard: true, retentionFloor: true })),
      ),
    ).toEqual([]);
    expect(refused(on, base)).toEqual(['settings.compliance']);
    expect(
      refused(
        on,
        edit((t) => (t.settings.compliance = { retentionFloor: true })),
      ),
    ).toEqual(['settings.compliance.crossBorderGuard']);
    expect(
      refused(
        on,
        edit((t) => (t.settings.compliance = { crossBorderGuard: false })),
      ),
    ).toEqual(['settings.compliance.crossBorderGuard']);
    // The whole profile holds every part: naming the part no longer is no loosening.
    expect(
      refused(
        on,
        edit((t) => (t.settings.compliance = { profile: 'dengbao3' })),
      ),
    ).toEqual([]);
    const whole = edit((t) => (t.settings.compliance = { profile: 'dengbao3' }));
    expect(refused(whole, on)).toEqual(['settings.compliance.profile']);
  });
});
