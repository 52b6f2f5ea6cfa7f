import {
  freePort,
  makeConfigDir,
  RedirectBrowser,
  startLoopbackIdp,
  startTestGateway,
  waitFor,
  type LoopbackIdp,
  type TestGateway,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const OLGA = { sub: 'olga-0001', name: 'Olga', email: 'olga@corp.example', groups: ['auditors'] };
const SAM = { sub: 'sam-0002', name: 'Sam', email: 'sam@corp.example', groups: ['sys-admins', 'auditors'] };
const ERIN = { sub: 'erin-0003', name: 'Erin', email: 'erin@corp.example', groups: ['security'] };

const RULES = `
      - { claim: groups, equals: sys-admins, role: system_admin }
      - { claim: groups, equals: security, role: security_admin }
      - { claim: groups, equals: auditors, role: audit_admin }`;

const platformYaml = (idp: LoopbackIdp, redirectUrl: string, rules: string, sessionTtlMs: number) => `
compliance:
  profile: dengbao3
auth:
  oidc:
    issuer: ${idp.issuer}
    clientId: ${idp.clientId}
    clientSecretEnv: TEST_OIDC_CLIENT_SECRET
    redirectUrl: ${redirectUrl}
    sessionTtlMs: ${sessionTtlMs}
    rules:${rules}
`;

/**
 * 三员分立 for people signing in (ADR 039): under the dengbao3 profile the OIDC role rules give a
 * person one separated administrator role at most, a person who answers for a key of another is
 * refused, and the rules' changes and the sessions' expiry are events.
 */
describe('separated administrators who sign in through the IdP (dengbao3 profile)', () => {
  let idp: LoopbackIdp;
  let gw: TestGateway;
  let redirectUrl: string;
  let port: number;

  const platformEvents = async (event: string) =>
    (await gw.api('GET', `/v1/audit/events?tenantId=_platform&event=${event}&limit=50`, { key: auditKey }))
      .body.data.items as { actor: { id: string }; details: Record<string, any> }[];
  let auditKey = '';

  async function signIn(sub: string) {
    const browser = new RedirectBrowser();
    idp.signInAs(sub);
    const flow = await browser.follow(`${gw.url}/v1/auth/oidc/login`, (u) =>
      u.pathname.startsWith('/console'),
    );
    return { browser, landing: flow.location! };
  }

  beforeAll(async () => {
    port = await freePort();
    redirectUrl = `http://127.0.0.1:${port}/v1/auth/oidc/callback`;
    idp = await startLoopbackIdp(redirectUrl, [OLGA, SAM, ERIN]);
    gw = await startTestGateway({
      port,
      env: {
        // A short session, so one can expire within the test (5 s; waited for, never slept).
        TOOLGATE_CONFIG_DIR: makeConfigDir({}, platformYaml(idp, redirectUrl, RULES, 5_000)),
        TEST_OIDC_CLIENT_SECRET: idp.clientSecret,
      },
    });
    auditKey = await gw.createKey('audit_admin', undefined, { owner: 'oidc:auditor-by-key' });
  });
  afterAll(async () => {
    await gw?.close();
    await idp?.close();
  });

  it('signs in a person with one administrator role, who reads the trail on the record', async () => {
    const { browser, landing } = await signIn(OLGA.sub);
    expect(landing.pathname).toBe('/console/');
    const me = (await (await browser.request(`${gw.url}/v1/me`)).json()) as { data: unknown };
    expect(me.data).toMatchObject({ role: 'audit_admin', tenantId: null, separatedDuties: true });
    expect((await browser.request(`${gw.url}/v1/audit/events?limit=1`)).status).toBe(200);
    const reads = await waitFor(async () =>
      (await platformEvents('admin_request')).filter((e) => e.actor.id === `oidc:${OLGA.sub}`),
    );
    expect(reads[0]!.details).toMatchObject({ outcome: 'success', power: 'trail.read', role: 'audit_admin' });
  });

  it('refuses a person two rules make two administrators, on the record', async () => {
    const { landing } = await signIn(SAM.sub);
    expect(landing.searchParams.get('signInError')).toBe('roles_conflict');
    const failed = (await platformEvents('sign_in_failed')).find((e) => e.actor.id === `oidc:${SAM.sub}`);
    expect(failed?.details).toMatchObject({ outcome: 'failure', reason: 'roles_conflict' });
  });

  it('refuses a person who answers for a key of another administrator role', async () => {
    expect(
      (
        await gw.api('POST', '/v1/admin/keys', {
          body: { name: 'erin audit', role: 'audit_admin', owner: `oidc:${ERIN.sub}` },
        })
      ).status,
    ).toBe(201);
    const { landing } = await signIn(ERIN.sub);
    expect(landing.searchParams.get('signInError')).toBe('roles_conflict');
  });

  it('records the role rules at the first boot and each change at a later one, before and after', async () => {
    const [first] = await platformEvents('role_mapping_changed');
    expect(first!.details).toMatchObject({ outcome: 'success', source: 'auth.oidc.rules', before: [] });
    expect(first!.details.after).toHaveLength(3);

    // Another gateway of the same deployment, booted with one rule fewer.
    const second = await startTestGateway({
      db: { ...gw.db, drop: async () => {} },
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir(
          {},
          platformYaml(idp, redirectUrl, RULES.split('\n').slice(0, 3).join('\n'), 5_000),
        ),
        TEST_OIDC_CLIENT_SECRET: idp.clientSecret,
      },
    });
    try {
      const changes = await platformEvents('role_mapping_changed');
      expect(changes).toHaveLength(2);
      expect(changes[0]!.details.before).toHaveLength(3);
      expect(changes[0]!.details.after).toHaveLength(2);
      expect(changes[0]!.details.previousDigest).toBe(first!.details.digest);
    } finally {
      await second.close();
    }
  });

  it('records a session that runs out as session_expired', async () => {
    const { browser } = await signIn(OLGA.sub);
    // The session ends by itself (5 s); a hang guard far above that.
    await waitFor(async () => (await browser.request(`${gw.url}/v1/me`)).status === 401, {
      timeoutMs: 30_000,
      intervalMs: 200,
      what: 'the session to expire',
    });
    // The next sign-in sweeps expired sessions first (so does a periodic sweep, every minute).
    await signIn(OLGA.sub);
    const expired = await waitFor(async () =>
      (await platformEvents('session_expired')).filter((e) => e.actor.id === `oidc:${OLGA.sub}`),
    );
    expect(expired[0]!.details).toMatchObject({ outcome: 'success', role: 'audit_admin', provider: 'oidc' });
  });
});
