import {
  makeConfigDir,
  openRawSql,
  RedirectBrowser,
  startLoopbackIdp,
  startTestGateway,
  type LoopbackIdp,
  type RawSql,
  type TestGateway,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Where people reach the gateway: https, so the gateway runs in Secure mode. */
const REDIRECT_URL = 'https://toolgate.example/v1/auth/oidc/callback';
const DANA = { sub: 'dana-0004', name: 'Dana', email: 'dana@acme.example', groups: ['acme-admins'] };
const MAX_PENDING_LOGINS = 5;

const platformYaml = (idp: LoopbackIdp) => `
auth:
  oidc:
    displayName: Loopback IdP
    issuer: ${idp.issuer}
    clientId: ${idp.clientId}
    clientSecretEnv: TEST_OIDC_CLIENT_SECRET
    redirectUrl: ${REDIRECT_URL}
    maxPendingLogins: ${MAX_PENDING_LOGINS}
    rules:
      - { claim: groups, equals: acme-admins, role: tenant_admin, tenantId: acme }
`;

describe('people’s sessions over https: one cookie spelling, their own name in the trail, bounded sign-ins', () => {
  let idp: LoopbackIdp;
  let gw: TestGateway;
  let sql: RawSql;
  let browser: RedirectBrowser;
  let sessionId: string;
  let csrf: string;

  beforeAll(async () => {
    idp = await startLoopbackIdp(REDIRECT_URL, [DANA]);
    gw = await startTestGateway({
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir({}, platformYaml(idp)),
        TEST_OIDC_CLIENT_SECRET: idp.clientSecret,
      },
    });
    sql = await openRawSql(gw.db);
    // The IdP sends the browser to the https address; the test hands its query to the gateway.
    browser = new RedirectBrowser();
    idp.signInAs(DANA.sub);
    const login = await browser.request(`${gw.url}/v1/auth/oidc/login`);
    expect(login.status).toBe(302);
    const back = await browser.follow(
      login.headers.get('location')!,
      (u) => u.origin === new URL(REDIRECT_URL).origin,
    );
    const callback = await browser.request(`${gw.url}/v1/auth/oidc/callback${back.location!.search}`);
    expect(callback.headers.get('location')).toBe('/console/');
    sessionId = browser.cookies(gw.url).get('__Host-tg_session')!;
    expect(sessionId).toMatch(/^[\w-]{43}$/);
  });

  afterAll(async () => {
    await sql?.close();
    await gw?.close();
    await idp?.close();
  });

  const me = (cookie: string) => gw.api('GET', '/v1/me', { key: null, headers: { cookie } });

  it('accepts only the __Host- session cookie, never the plain spelling a subdomain could plant', async () => {
    const secure = await me(`__Host-tg_session=${sessionId}`);
    expect(secure.status).toBe(200);
    expect(secure.body.data).toMatchObject({ principalId: `oidc:${DANA.sub}`, role: 'tenant_admin' });
    csrf = secure.body.data.csrfToken;
    const planted = await me(`tg_session=${sessionId}`);
    expect(planted.status).toBe(401);
    expect(planted.body.code).toBe('UNAUTHENTICATED');
  });

  it('records a signed-in person’s admin change as that person (user), not as an API key', async () => {
    const current = await gw.api('GET', '/v1/admin/tenants/acme/bindings');
    const ops = current.body.data.find((b: { agentType: string }) => b.agentType === 'ops_assistant');
    const changed = await gw.api('PUT', '/v1/admin/tenants/acme/agents/ops_assistant/bindings', {
      key: null,
      headers: { cookie: `__Host-tg_session=${sessionId}`, 'x-csrf-token': csrf },
      body: { version: ops.version, tools: ops.tools.slice(0, 1) },
    });
    expect(changed.status, changed.text).toBe(200);
    const events = await gw.api('GET', `/v1/audit/events?tenantId=acme&actorId=oidc:${DANA.sub}&limit=50`);
    const actors = events.body.data.items.map((e: { event: string; actor: unknown }) => [e.event, e.actor]);
    // Newest first: the change, then the sign-in that began the session (also the person's act).
    expect(actors).toEqual([
      ['binding_changed', { type: 'user', id: `oidc:${DANA.sub}` }],
      ['signed_in', { type: 'user', id: `oidc:${DANA.sub}` }],
    ]);
  });

  it('keeps at most maxPendingLogins anonymous sign-ins, and forgets expired ones without a sign-in', async () => {
    const pending = async () =>
      Number((await sql.query<{ n: number }>('SELECT COUNT(*) AS n FROM oidc_logins'))[0]!.n);
    const statuses: number[] = [];
    for (let i = 0; i < MAX_PENDING_LOGINS + 2; i++) {
      const res = await fetch(`${gw.url}/v1/auth/oidc/login`, { redirect: 'manual' });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.headers.get('retry-after')).toBe('60');
        expect(await res.json()).toMatchObject({ code: 'RATE_LIMITED' });
      } else await res.body?.cancel();
    }
    expect(statuses).toEqual([...Array(MAX_PENDING_LOGINS).fill(302), 429, 429]);
    expect(await pending()).toBe(MAX_PENDING_LOGINS);

    // Abandoned sign-ins past their expiry go before the next one is counted.
    await sql.query(`UPDATE oidc_logins SET expires_at = ?`, ['2000-01-01 00:00:00.000']);
    const next = await fetch(`${gw.url}/v1/auth/oidc/login`, { redirect: 'manual' });
    expect(next.status).toBe(302);
    expect(await pending()).toBe(1);
  });
});
