import { openRawSql, startTestGateway, type TestGateway } from '@toolgate/testing';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UpstreamSecretNamespace1765200100000 } from '../../libs/upstreams/src/migrations/1765200100000-upstream-secret-namespace.js';
import { startFakeMcpUpstream, type FakeMcpUpstream } from '../support/fake-mcp-upstream.js';

/** Upstream secrets of two tenants, and names from before secrets were namespaced per tenant. */
const SECRETS = {
  TOOLGATE_UPSTREAM_ACME__CRM_TOKEN: 'acme-crm-token-0123456789',
  TOOLGATE_UPSTREAM_GLOBEX__CRM_TOKEN: 'globex-crm-token-9876543210',
  TOOLGATE_UPSTREAM_GLOBEX_CRM_TOKEN: 'globex-legacy-token-5555555',
  TOOLGATE_UPSTREAM_CRM_TOKEN: 'legacy-crm-token-4444444444',
};

describe('secret namespaces: each tenant reads only its own TOOLGATE_<FAMILY>_<TENANT>__* variables', () => {
  let gw: TestGateway;
  let upstream: FakeMcpUpstream;
  let acmeAdmin: string;
  const base = '/v1/admin/tenants/acme/upstreams';
  const register = (name: string, secretEnv: string) =>
    gw.api('POST', base, {
      key: acmeAdmin,
      body: { name, url: upstream.url, auth: { header: 'authorization', secretEnv } },
    });
  const sentSecrets = () => upstream.requests.map((r) => r.authorization).filter(Boolean);

  beforeAll(async () => {
    Object.assign(process.env, SECRETS);
    upstream = await startFakeMcpUpstream({
      find_customer: {
        description: 'Finds customers.',
        inputSchema: { query: z.string() },
        handler: () => ({ content: [{ type: 'text', text: 'found' }] }),
      },
    });
    gw = await startTestGateway({ env: { TOOLGATE_UPSTREAM_REFRESH_MS: '600000' } });
    acmeAdmin = await gw.createKey('tenant_admin', 'acme');
  });
  afterAll(async () => {
    await gw?.close();
    await upstream?.close();
    for (const k of Object.keys(SECRETS)) delete process.env[k];
  });

  it('refuses another tenant’s (or an un-namespaced) upstream secret at registration, sends it nowhere, and audits the attempt', async () => {
    for (const secretEnv of [
      'TOOLGATE_UPSTREAM_GLOBEX__CRM_TOKEN',
      'TOOLGATE_UPSTREAM_GLOBEX_CRM_TOKEN',
      'TOOLGATE_UPSTREAM_CRM_TOKEN',
      'TOOLGATE_UPSTREAM_ACME__',
      'TOOLGATE_T_ACME__OPS_TOKEN',
    ]) {
      const res = await register('crm', secretEnv);
      expect(res.status, `${secretEnv}: ${res.text}`).toBe(400);
      expect(res.body).toMatchObject({
        code: 'INVALID_INPUT',
        details: { issues: [{ path: 'auth.secretEnv' }] },
      });
      expect(res.body.error).toContain('TOOLGATE_UPSTREAM_ACME__');
    }
    expect(upstream.requests).toEqual([]);
    const failures = (await gw.api('GET', '/v1/audit/events?tenantId=acme&limit=100')).body.data.items.filter(
      (e: any) => e.event === 'upstream_changed' && e.details.kind === 'server_registration_failed',
    );
    // (A name outside the upstream family may be refused by the request schema, before the trail.)
    expect(failures.map((e: any) => e.details.authVariable)).toEqual(
      expect.arrayContaining([
        'TOOLGATE_UPSTREAM_GLOBEX__CRM_TOKEN',
        'TOOLGATE_UPSTREAM_GLOBEX_CRM_TOKEN',
        'TOOLGATE_UPSTREAM_CRM_TOKEN',
        'TOOLGATE_UPSTREAM_ACME__',
      ]),
    );
    expect(failures[0]).toMatchObject({
      actor: { type: 'api_key' },
      details: { code: 'INVALID_INPUT', upstream: 'crm' },
    });
    const trail = JSON.stringify(failures);
    for (const value of Object.values(SECRETS)) expect(trail).not.toContain(value);
  });

  it('sends its own namespaced secret to its own upstream', async () => {
    const res = await register('crm', 'TOOLGATE_UPSTREAM_ACME__CRM_TOKEN');
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.upstream.auth).toEqual({
      header: 'authorization',
      secretEnv: 'TOOLGATE_UPSTREAM_ACME__CRM_TOKEN',
    });
    expect(new Set(sentSecrets())).toEqual(new Set([SECRETS.TOOLGATE_UPSTREAM_ACME__CRM_TOKEN]));
  });

  it('renames an un-namespaced stored name into the tenant’s namespace when the gateway upgrades', async () => {
    const sql = await openRawSql(gw.db);
    try {
      await sql.query(`UPDATE upstream_servers SET auth_env = ? WHERE tenant_id = 'acme' AND name = 'crm'`, [
        'TOOLGATE_UPSTREAM_CRM_TOKEN',
      ]);
      const runner = gw.app.get(DataSource).createQueryRunner();
      try {
        await new UpstreamSecretNamespace1765200100000().up(runner);
      } finally {
        await runner.release();
      }
      const rows = await sql.query<{ auth_env: string }>(
        `SELECT auth_env FROM upstream_servers WHERE tenant_id = 'acme' AND name = 'crm'`,
      );
      expect(rows.map((r) => r.auth_env)).toEqual(['TOOLGATE_UPSTREAM_ACME__CRM_TOKEN']);
    } finally {
      await sql.close();
    }
  });

  it('refuses at use a stored name outside the tenant’s namespace, naming the one to use, and sends nothing', async () => {
    const sql = await openRawSql(gw.db);
    try {
      // As an older gateway (or an edit behind the gateway's back) would have left it.
      await sql.query(`UPDATE upstream_servers SET auth_env = ? WHERE tenant_id = 'acme' AND name = 'crm'`, [
        'TOOLGATE_UPSTREAM_GLOBEX_CRM_TOKEN',
      ]);
    } finally {
      await sql.close();
    }
    const before = upstream.requests.length;
    const res = await gw.api('GET', `${base}/crm/tools`, { key: acmeAdmin });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 'UPSTREAM_ERROR', details: { failure: 'secret_namespace' } });
    expect(res.body.error).toContain('TOOLGATE_UPSTREAM_ACME__GLOBEX_CRM_TOKEN');
    expect(upstream.requests.length).toBe(before);
    expect(sentSecrets()).not.toContain(SECRETS.TOOLGATE_UPSTREAM_GLOBEX_CRM_TOKEN);
  });
});
