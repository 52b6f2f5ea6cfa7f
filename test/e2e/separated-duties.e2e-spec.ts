import { mayUse, SEPARATED_ROLES, type Role } from '@toolgate/contract';
import { startTestGateway, TEST_ADMIN_KEY, waitFor, type TestGateway } from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredRoutes, type DeclaredRoute } from '../support/admin-routes.js';

/** A value for each path parameter an admin route takes: real where it matters (the tenant). */
const PARAMS: Record<string, string> = {
  tenantId: 'acme',
  agentType: 'ops_assistant',
  keyId: 'key_none',
  name: 'none',
  tool: 'none',
  id: 'none',
  deliveryId: 'none',
};
const pathOf = (route: DeclaredRoute) =>
  route.path.replace(/:([A-Za-z]+)/g, (_, name: string) => PARAMS[name] ?? 'none');

/** Admin routes: those a person administers the platform or reads the trail through. */
const isAdminPath = (path: string) => path.startsWith('/v1/admin') || path.startsWith('/v1/audit');

/** The principals the test holds a key of, with the role and tenant each has. */
interface Holder {
  readonly label: string;
  readonly role: Role;
  readonly tenantId: string | null;
  key: string;
}

/**
 * 等保 2.0 8.1.5 三员分立 under the dengbao3 profile (ADR 039): the system, security and audit
 * administrators hold separate powers, platform_admin none of them (but appointing them), no person
 * holds two of them, and every act of each — the audit administrator's reads included — is in the
 * trail. The power of every admin route comes from one table, which this walks route by route.
 */
describe('separated administrators (dengbao3 profile)', () => {
  let gw: TestGateway;
  const holders: Holder[] = [];
  const keyOf = (label: string) => holders.find((h) => h.label === label)!.key;

  beforeAll(async () => {
    gw = await startTestGateway({ env: { TOOLGATE_COMPLIANCE_PROFILE: 'dengbao3' } });
    holders.push({ label: 'platform_admin', role: 'platform_admin', tenantId: null, key: TEST_ADMIN_KEY });
    // platform_admin appoints the three administrators, each answered for by another person.
    for (const role of SEPARATED_ROLES)
      holders.push({
        label: role,
        role,
        tenantId: null,
        key: await gw.createKey(role, undefined, { owner: `oidc:${role}-person` }),
      });
    // The tenants' roles are the security admin's to hand out.
    const bySecurity = async (role: Role, tenantId?: string) => {
      const res = await gw.api('POST', '/v1/admin/keys', {
        key: keyOf('security_admin'),
        body: { name: `${role} ${tenantId ?? 'platform'}`, role, ...(tenantId ? { tenantId } : {}) },
      });
      expect(res.status, res.text).toBe(201);
      return res.body.data.key as string;
    };
    for (const [role, tenantId] of [
      ['tenant_admin', 'acme'],
      ['auditor', 'acme'],
      ['auditor', null],
      ['approver', 'acme'],
      ['agent', 'acme'],
    ] as const)
      holders.push({
        label: `${role}${tenantId ? `@${tenantId}` : ''}`,
        role,
        tenantId,
        key: await bySecurity(role, tenantId ?? undefined),
      });
  });
  afterAll(() => gw?.close());

  it('gives every admin route a power from the one table', () => {
    const routes = declaredRoutes(gw.app).filter((r) => isAdminPath(r.path));
    expect(routes.length).toBeGreaterThanOrEqual(35);
    expect(routes.filter((r) => !r.power).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('refuses each role outside its powers, naming the administrator to use, and lets it in inside them', async () => {
    const routes = declaredRoutes(gw.app).filter((r) => r.power);
    const wrong: string[] = [];
    for (const route of routes)
      for (const h of holders) {
        // A body no schema takes: a route a role may use answers 400 (or 404), never runs a change.
        const res = await gw.api(route.method, pathOf(route), {
          key: h.key,
          ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: { notAField: true } }),
        });
        const verdict = mayUse(route.power!, h.role, h.tenantId, true);
        const seen = `${route.method} ${route.path} as ${h.label}: ${res.status} ${res.body?.code ?? ''}`;
        if (verdict.ok) {
          if (res.status === 403 || res.status === 401) wrong.push(`${seen} (should be let in)`);
        } else if (verdict.separated) {
          if (res.status !== 403 || res.body.code !== 'DUTIES_SEPARATED')
            wrong.push(`${seen} (DUTIES_SEPARATED)`);
          else
            expect(res.body.details.requiredRole).toEqual(
              verdict.separated.length === 1 ? verdict.separated[0] : verdict.separated,
            );
        } else if (res.status !== 403 || res.body.code !== 'FORBIDDEN') wrong.push(`${seen} (FORBIDDEN)`);
      }
    expect(wrong).toEqual([]);
  });

  it('keeps the separated roles apart in the power table itself', () => {
    expect(mayUse('trail.read', 'system_admin', null, true).ok).toBe(false);
    expect(mayUse('trail.export', 'security_admin', null, true).ok).toBe(false);
    for (const power of ['keys', 'bindings', 'tenants', 'upstreams', 'notifications'] as const)
      expect(mayUse(power, 'audit_admin', null, true).ok).toBe(false);
    // Without the profile platform_admin holds every power, as before.
    expect(mayUse('trail.export', 'platform_admin', null, false).ok).toBe(true);
  });

  it('lets platform_admin appoint the administrators and nothing else about keys', async () => {
    const tenantKey = await gw.api('POST', '/v1/admin/keys', {
      body: { name: 'agent', role: 'agent', tenantId: 'acme' },
    });
    expect(tenantKey.status).toBe(403);
    expect(tenantKey.body).toMatchObject({
      code: 'DUTIES_SEPARATED',
      details: { requiredRole: 'security_admin' },
    });
    expect(tenantKey.body.error).toMatch(/security_admin/);
    expect(tenantKey.body.suggestedAction).toMatch(/security_admin/);

    const appointed = await gw.api('POST', '/v1/admin/keys', {
      key: keyOf('security_admin'),
      body: { name: 'another auditor', role: 'audit_admin', owner: 'oidc:someone' },
    });
    expect(appointed.status).toBe(403);
    expect(appointed.body).toMatchObject({
      code: 'DUTIES_SEPARATED',
      details: { requiredRole: 'platform_admin' },
    });

    const ownerless = await gw.api('POST', '/v1/admin/keys', {
      body: { name: 'auditor without owner', role: 'audit_admin' },
    });
    expect(ownerless.status).toBe(400);
    expect(ownerless.text).toMatch(/names its owner/);
  });

  it('refuses a second administrator role for one person, and takes it once the first is revoked', async () => {
    const first = await gw.api('POST', '/v1/admin/keys', {
      body: { name: 'dana system', role: 'system_admin', owner: 'oidc:dana' },
    });
    expect(first.status).toBe(201);
    const second = await gw.api('POST', '/v1/admin/keys', {
      body: { name: 'dana audit', role: 'audit_admin', owner: 'oidc:dana' },
    });
    expect(second.status).toBe(403);
    expect(second.body).toMatchObject({
      code: 'ROLES_CONFLICT',
      details: { person: 'oidc:dana', role: 'audit_admin', heldRole: 'system_admin' },
    });
    // The same role twice is one role: a second system_admin key for dana is fine.
    expect(
      (
        await gw.api('POST', '/v1/admin/keys', {
          body: { name: 'dana 2', role: 'system_admin', owner: 'oidc:dana' },
        })
      ).status,
    ).toBe(201);
    for (const k of (await gw.api('GET', '/v1/admin/keys')).body.data.filter(
      (k: { owner: string | null; revokedAt: string | null }) => k.owner === 'oidc:dana' && !k.revokedAt,
    ))
      expect((await gw.api('DELETE', `/v1/admin/keys/${k.id}`)).status).toBe(200);
    expect(
      (
        await gw.api('POST', '/v1/admin/keys', {
          body: { name: 'dana audit', role: 'audit_admin', owner: 'oidc:dana' },
        })
      ).status,
    ).toBe(201);
  });

  it('re-owns a key on the record, never to a person who holds another administrator role', async () => {
    const sys = await gw.api('POST', '/v1/admin/keys', {
      body: { name: 'fay system', role: 'system_admin', owner: 'oidc:fay' },
    });
    expect(sys.status).toBe(201);
    const path = `/v1/admin/keys/${sys.body.data.id}`;
    // Gus answers for an audit admin key: he may not answer for a system admin key too.
    await gw.api('POST', '/v1/admin/keys', {
      body: { name: 'gus audit', role: 'audit_admin', owner: 'oidc:gus' },
    });
    const toGus = await gw.api('PATCH', path, { body: { owner: 'oidc:gus' } });
    expect(toGus.status).toBe(403);
    expect(toGus.body).toMatchObject({ code: 'ROLES_CONFLICT', details: { heldRole: 'audit_admin' } });
    expect((await gw.api('PATCH', path, { body: { owner: null } })).status).toBe(400);
    expect(
      (await gw.api('PATCH', path, { key: keyOf('security_admin'), body: { owner: 'oidc:hal' } })).body,
    ).toMatchObject({ code: 'DUTIES_SEPARATED', details: { requiredRole: 'platform_admin' } });
    const toHal = await gw.api('PATCH', path, { body: { owner: 'oidc:hal' } });
    expect(toHal.status).toBe(200);
    expect(toHal.body.data.owner).toBe('oidc:hal');
    const [event] = (
      await gw.api('GET', '/v1/audit/events?tenantId=_platform&event=key_owner_changed&limit=1', {
        key: keyOf('audit_admin'),
      })
    ).body.data.items;
    expect(event.details).toMatchObject({
      outcome: 'success',
      keyId: sys.body.data.id,
      role: 'system_admin',
      before: 'oidc:fay',
      after: 'oidc:hal',
    });
  });

  it('keeps bindings out of the system admin’s tenant import', async () => {
    const yaml = (await gw.api('GET', '/v1/admin/tenants/acme/export', { key: keyOf('system_admin') })).text;
    // The same file changes nothing: the system admin may import it.
    const same = await gw.api('POST', '/v1/admin/tenants/acme/import', {
      key: keyOf('system_admin'),
      body: { yaml },
    });
    expect(same.status, same.text).toBe(200);
    const fewerTools = yaml.replace(/\n\s+- get_service_status\n/, '\n');
    expect(fewerTools).not.toBe(yaml);
    const changed = await gw.api('POST', '/v1/admin/tenants/acme/import', {
      key: keyOf('system_admin'),
      body: { yaml: fewerTools },
    });
    expect(changed.status).toBe(403);
    expect(changed.body).toMatchObject({
      code: 'DUTIES_SEPARATED',
      details: { requiredRole: 'security_admin' },
    });
  });

  it('puts every act of each administrator in the trail, the audit admin’s reads and refusals included', async () => {
    const audit = keyOf('audit_admin');
    const auditId = (await gw.api('GET', '/v1/me', { key: audit })).body.data.principalId as string;
    const systemId = (await gw.api('GET', '/v1/me', { key: keyOf('system_admin') })).body.data.principalId;

    expect((await gw.api('GET', '/v1/audit/events?limit=1', { key: audit })).status).toBe(200);
    expect((await gw.api('GET', '/v1/audit/verify?tenantId=acme', { key: audit })).body.data.ok).toBe(true);
    const csv = await gw.api('GET', '/v1/audit/export?format=csv&tenantId=acme', { key: audit });
    expect(csv.status).toBe(200);
    const refused = await gw.api('GET', '/v1/audit/events', { key: keyOf('system_admin') });
    expect(refused.body.code).toBe('DUTIES_SEPARATED');

    const events = async (actorId: string) =>
      (
        await gw.api('GET', `/v1/audit/events?tenantId=_platform&actorId=${actorId}&limit=200`, {
          key: audit,
        })
      ).body.data.items as { event: string; code: string | null; details: Record<string, unknown> }[];
    // Recorded beside the answer (refusals, changes): waited for, with a hang guard far above it.
    // The walk above left the system admin's other refusals too: this one is found by code and route.
    const refusal = (e: { event: string; code: string | null; details: Record<string, unknown> }) =>
      e.event === 'access_denied' &&
      e.code === 'DUTIES_SEPARATED' &&
      e.details.route === 'GET /v1/audit/events';
    await waitFor(async () => (await events(systemId)).some(refusal), { timeoutMs: 30_000 });
    const mine = await events(auditId);
    expect(mine.find((e) => e.event === 'admin_request' && e.details.power === 'trail.read')).toMatchObject({
      details: { outcome: 'success', role: 'audit_admin', route: 'GET /v1/audit/events' },
    });
    expect(mine.find((e) => e.event === 'chain_verified')).toMatchObject({
      details: { outcome: 'success', ok: true, role: 'audit_admin' },
    });
    expect(mine.find((e) => e.event === 'trail_exported')).toMatchObject({
      details: { outcome: 'success', format: 'csv', tenantId: 'acme' },
    });

    // The export names each event's type and outcome in columns of their own.
    const [header, ...rows] = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    const columns = header!.split(',');
    expect(columns).toContain('event');
    expect(columns.at(-1)).toBe('outcome');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toMatch(/,(success|failure)$/);
  });
});

describe('the separated roles without the profile', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw?.close());

  it('exist as roles; platform_admin keeps every power, and a role outside its powers is plainly refused', async () => {
    const audit = await gw.createKey('audit_admin');
    const system = await gw.createKey('system_admin');
    expect((await gw.api('GET', '/v1/audit/events')).status).toBe(200);
    expect((await gw.api('GET', '/v1/audit/events', { key: audit })).status).toBe(200);
    const refused = await gw.api('GET', '/v1/audit/events', { key: system });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    expect((await gw.api('GET', '/v1/admin/tenants', { key: system })).status).toBe(200);
    // No admin_request events without the profile: the reads above left none.
    const reads = await gw.api('GET', '/v1/audit/events?event=admin_request');
    expect(reads.body.data.items).toEqual([]);
  });
});
