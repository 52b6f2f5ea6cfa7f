import {
  freePort,
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

const RESTART = { service: 'payment-api', reason: '发布后内存泄漏，需要重启' };
const ALICE = {
  sub: 'alice-0001',
  name: '王丽 Alice',
  email: 'alice@acme.example',
  groups: ['staff', 'acme-approvers'],
};
const BOB = { sub: 'bob-0002', name: 'Bob', email: 'bob@acme.example', groups: ['acme-approvers'] };
const CAROL = { sub: 'carol-0003', name: 'Carol', email: 'carol@elsewhere.example', groups: ['staff'] };

const platformYaml = (idp: LoopbackIdp, redirectUrl: string) => `
auth:
  oidc:
    displayName: Loopback IdP
    issuer: ${idp.issuer}
    clientId: ${idp.clientId}
    clientSecretEnv: TEST_OIDC_CLIENT_SECRET
    scopes: [openid, profile, email]
    redirectUrl: ${redirectUrl}
    rules:
      - { claim: groups, equals: acme-approvers, role: approver, tenantId: acme }
`;

describe('people sign in through a real OpenID provider (code + PKCE) and decide as themselves', () => {
  let idp: LoopbackIdp;
  let gw: TestGateway;
  let sql: RawSql;
  let agentOwnedByBob: string;

  beforeAll(async () => {
    const port = await freePort();
    const redirectUrl = `http://127.0.0.1:${port}/v1/auth/oidc/callback`;
    idp = await startLoopbackIdp(redirectUrl, [ALICE, BOB, CAROL]);
    gw = await startTestGateway({
      port,
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir({}, platformYaml(idp, redirectUrl)),
        TEST_OIDC_CLIENT_SECRET: idp.clientSecret,
      },
    });
    sql = await openRawSql(gw.db);
    agentOwnedByBob = await gw.createKey('agent', 'acme', { owner: `oidc:${BOB.sub}` });
  });
  afterAll(async () => {
    await sql?.close();
    await gw?.close();
    await idp?.close();
  });

  const isConsole = (u: URL) => u.pathname.startsWith('/console');
  const isCallback = (u: URL) => u.pathname === '/v1/auth/oidc/callback';

  /** Signs `sub` in with a fresh browser; returns the browser and where the gateway sent it. */
  async function signIn(sub: string) {
    const browser = new RedirectBrowser();
    idp.signInAs(sub);
    const flow = await browser.follow(`${gw.url}/v1/auth/oidc/login`, isConsole);
    return { browser, flow, landing: flow.location };
  }

  // Answers of the API are JSON of the contract's shapes; the tests read them loosely.
  const json = (res: Response): Promise<any> => res.json();
  const me = (browser: RedirectBrowser) => browser.request(`${gw.url}/v1/me`).then(json);
  const post = (browser: RedirectBrowser, path: string, body: unknown, csrf?: string) =>
    browser.request(`${gw.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(csrf === undefined ? {} : { 'x-csrf-token': csrf }),
      },
      body: JSON.stringify(body),
    });
  const park = async (key: string) => {
    const res = await gw.api('POST', '/v1/agents/ops_assistant/tools/restart_service/invoke', {
      key,
      body: { input: RESTART },
    });
    expect(res.status).toBe(202);
    return res.body as { callId: string; approvalId: string };
  };

  it('says which IdP the console offers', async () => {
    const res = await gw.api('GET', '/v1/auth/providers', { key: null });
    expect(res.body.data).toEqual({ oidc: { displayName: 'Loopback IdP', loginUrl: '/v1/auth/oidc/login' } });
  });

  it('runs the code flow with PKCE through the IdP and starts an httpOnly SameSite session', async () => {
    const browser = new RedirectBrowser();
    idp.signInAs(ALICE.sub);
    const login = await browser.request(`${gw.url}/v1/auth/oidc/login`);
    expect(login.status).toBe(302);
    const authorize = new URL(login.headers.get('location')!);
    expect(authorize.origin).toBe(idp.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    // The PKCE verifier stays on the server: nothing the browser holds is it.
    expect(login.headers.getSetCookie().join('\n')).toMatch(
      /^tg_oidc_state=[\w-]+; Path=\/v1\/auth\/oidc; .*HttpOnly; SameSite=Lax$/,
    );

    const flow = await browser.follow(authorize.href, isConsole);
    expect(flow.location?.pathname).toBe('/console/');
    const setCookie = flow.last.headers.getSetCookie().join('\n');
    expect(setCookie).toMatch(/tg_session=[\w-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax/);
    expect(browser.cookies(gw.url).has('tg_oidc_state')).toBe(false);

    const who = await me(browser);
    expect(who.data).toEqual({
      principalId: `oidc:${ALICE.sub}`,
      principalType: 'user',
      name: ALICE.name,
      email: ALICE.email,
      role: 'approver',
      tenantId: 'acme',
      agentTypes: null,
      csrfToken: expect.stringMatching(/^[\w-]{43}$/),
    });
    // Only the hash of the session id is stored.
    const rows = await sql.query<{ id_hash: string }>('SELECT id_hash FROM auth_sessions');
    const sessionId = browser.cookies(gw.url).get('tg_session')!;
    expect(rows.map((r) => r.id_hash)).not.toContain(sessionId);
  });

  it('lets a mapped approver decide a parked call; approval, call record and audit trail name the person', async () => {
    const { browser } = await signIn(ALICE.sub);
    const csrf = (await me(browser)).data.csrfToken as string;
    const { callId, approvalId } = await park(agentOwnedByBob);

    const inbox = await browser.request(`${gw.url}/v1/approvals?status=pending`).then(json);
    expect(inbox.data.map((a: { approvalId: string }) => a.approvalId)).toContain(approvalId);

    for (const token of [undefined, 'x'.repeat(43), '']) {
      const refused = await post(browser, `/v1/approvals/${approvalId}/approve`, {}, token);
      expect(refused.status).toBe(403);
      expect(await json(refused)).toMatchObject({
        code: 'FORBIDDEN',
        error: expect.any(String),
        suggestedAction: expect.any(String),
      });
    }
    expect((await gw.api('GET', `/v1/calls/${callId}`)).body.data.status).toBe('pending_approval');

    const approved = await post(browser, `/v1/approvals/${approvalId}/approve`, { comment: 'ok' }, csrf);
    expect(approved.status).toBe(200);
    const decided = (await json(approved)).data;
    const person = { type: 'user', id: `oidc:${ALICE.sub}`, name: ALICE.name, email: ALICE.email };
    expect(decided.approval.decisions).toEqual([
      expect.objectContaining({
        approverId: person.id,
        approverType: 'user',
        approverName: ALICE.name,
        approverEmail: ALICE.email,
        decision: 'approve',
      }),
    ]);
    expect(decided.call).toMatchObject({ status: 'succeeded', decidedBy: person });
    expect((await gw.api('GET', `/v1/calls/${callId}`)).body.data.decidedBy).toEqual(person);

    const events = (await gw.api('GET', `/v1/audit/calls/${callId}`)).body.data.events;
    const decision = events.find((e: { event: string }) => e.event === 'approval_decided');
    expect(decision).toMatchObject({
      actor: { type: 'user', id: person.id },
      approver: { id: person.id },
      // The trail keeps the tenant's redaction policy: e-mail addresses are masked there too.
      details: { decision: 'approve', approver: { ...person, email: 'a***@acme.example' } },
    });
  });

  it('refuses the person who owns the requesting key, through a session or through a key of theirs', async () => {
    const { browser } = await signIn(BOB.sub);
    const csrf = (await me(browser)).data.csrfToken as string;
    const { approvalId, callId } = await park(agentOwnedByBob);
    const refused = await post(browser, `/v1/approvals/${approvalId}/approve`, {}, csrf);
    expect(refused.status).toBe(403);
    expect(await json(refused)).toMatchObject({
      code: 'FORBIDDEN',
      details: { reason: expect.stringContaining('owns the key') },
    });
    const bobsApproverKey = await gw.createKey('approver', 'acme', { owner: `oidc:${BOB.sub}` });
    const byKey = await gw.api('POST', `/v1/approvals/${approvalId}/approve`, {
      key: bobsApproverKey,
      body: {},
    });
    expect(byKey.status).toBe(403);
    expect((await gw.api('GET', `/v1/calls/${callId}`)).body.data.status).toBe('pending_approval');
    // Someone else may.
    const other = await gw.createKey('approver', 'acme', { owner: 'oidc:someone-else' });
    expect(
      (await gw.api('POST', `/v1/approvals/${approvalId}/deny`, { key: other, body: { comment: 'no' } }))
        .status,
    ).toBe(200);
  });

  it('shows an unmapped person the no-access page and gives no session', async () => {
    const { browser, landing } = await signIn(CAROL.sub);
    expect(landing?.pathname).toBe('/console/no-access');
    expect(browser.cookies(gw.url).has('tg_session')).toBe(false);
    expect((await browser.request(`${gw.url}/v1/me`)).status).toBe(401);
  });

  it('refuses a callback in another browser (state), a replayed callback, and a nonce that does not match', async () => {
    // The IdP's answer opened in a browser that did not start the sign-in.
    const starter = new RedirectBrowser();
    idp.signInAs(ALICE.sub);
    const toCallback = await starter.follow(`${gw.url}/v1/auth/oidc/login`, isCallback);
    const callbackUrl = toCallback.location!.href;
    const stranger = new RedirectBrowser();
    const elsewhere = await stranger.request(callbackUrl);
    expect(elsewhere.headers.get('location')).toBe('/console/?signInError=refused');
    expect(stranger.cookies(gw.url).has('tg_session')).toBe(false);

    // The right browser, once; the same callback again finds no sign-in to finish.
    const first = await starter.request(callbackUrl);
    expect(first.headers.get('location')).toBe('/console/');
    const replayer = new RedirectBrowser();
    replayer.cookies(gw.url).set('tg_oidc_state', new URL(callbackUrl).searchParams.get('state')!);
    const replay = await replayer.request(callbackUrl);
    expect(replay.headers.get('location')).toBe('/console/?signInError=refused');
    expect(replayer.cookies(gw.url).has('tg_session')).toBe(false);

    // A nonce the ID token does not carry (as if the token were made for another sign-in).
    const tampered = new RedirectBrowser();
    const atIdp = await tampered.follow(`${gw.url}/v1/auth/oidc/login`, (u) => u.origin === idp.issuer);
    expect(atIdp.location).toBeTruthy();
    await sql.query('UPDATE oidc_logins SET nonce = ?', ['not-the-nonce-the-idp-signed']);
    const flow = await tampered.follow(atIdp.location!.href, isConsole);
    expect(flow.location?.href).toBe(`${gw.url}/console/?signInError=refused`);
    expect(tampered.cookies(gw.url).has('tg_session')).toBe(false);
  });

  it('ends a session on logout (with its CSRF token) and when it expires', async () => {
    const { browser } = await signIn(ALICE.sub);
    const csrf = (await me(browser)).data.csrfToken as string;
    const noToken = await post(browser, '/v1/auth/logout', {});
    expect(noToken.status).toBe(403);
    expect((await browser.request(`${gw.url}/v1/me`)).status).toBe(200);
    const sessionId = browser.cookies(gw.url).get('tg_session')!;
    const out = await post(browser, '/v1/auth/logout', {}, csrf);
    expect(out.status).toBe(200);
    expect(await json(out)).toEqual({ data: { signedOut: true }, status: 'ok' });
    expect(browser.cookies(gw.url).has('tg_session')).toBe(false);
    const stale = await fetch(`${gw.url}/v1/me`, { headers: { cookie: `tg_session=${sessionId}` } });
    expect(stale.status).toBe(401);
    expect(await json(stale)).toMatchObject({ code: 'UNAUTHENTICATED' });

    const second = await signIn(ALICE.sub);
    expect((await second.browser.request(`${gw.url}/v1/me`)).status).toBe(200);
    await sql.query('UPDATE auth_sessions SET expires_at = ?', ['2000-01-01 00:00:00.000']);
    expect((await second.browser.request(`${gw.url}/v1/me`)).status).toBe(401);
  });

  it('records sign-ins, refused sign-ins and sign-outs in the trail: who, when, outcome, from where', async () => {
    const events = async (event: string, tenantId: string) =>
      (await gw.api('GET', `/v1/audit/events?event=${event}&tenantId=${tenantId}&limit=500`)).body.data
        .items as {
        actor: { type: string; id: string };
        details: Record<string, unknown>;
        occurredAt: string;
      }[];
    const before = (await events('signed_in', 'acme')).length;
    const { browser } = await signIn(BOB.sub);
    const signedIn = await events('signed_in', 'acme');
    expect(signedIn).toHaveLength(before + 1);
    expect(signedIn[0]).toMatchObject({
      actor: { type: 'user', id: `oidc:${BOB.sub}` },
      details: { outcome: 'success', provider: 'oidc', role: 'approver', sourceAddress: '127.0.0.1' },
      occurredAt: expect.any(String),
    });

    // A person the rules give no access, and a token the gateway refuses: the platform's chain.
    const failedBefore = (await events('sign_in_failed', '_platform')).length;
    await signIn(CAROL.sub);
    const tampered = new RedirectBrowser();
    const atIdp = await tampered.follow(`${gw.url}/v1/auth/oidc/login`, (u) => u.origin === idp.issuer);
    await sql.query('UPDATE oidc_logins SET nonce = ?', ['not-the-nonce-the-idp-signed']);
    await tampered.follow(atIdp.location!.href, isConsole);
    const failed = await events('sign_in_failed', '_platform');
    expect(failed).toHaveLength(failedBefore + 2);
    expect(failed.map((e) => e.details)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ outcome: 'failure', reason: 'no_access', sourceAddress: '127.0.0.1' }),
        expect.objectContaining({
          outcome: 'failure',
          reason: 'the identity provider did not confirm the sign-in',
        }),
      ]),
    );
    // A callback with a state this gateway never issued is not on the record (nobody could be capped).
    await fetch(`${gw.url}/v1/auth/oidc/callback?state=made-up&code=x`, {
      headers: { cookie: 'tg_oidc_state=made-up' },
      redirect: 'manual',
    });
    expect(await events('sign_in_failed', '_platform')).toHaveLength(failedBefore + 2);

    const csrf = (await me(browser)).data.csrfToken as string;
    expect((await post(browser, '/v1/auth/logout', {}, csrf)).status).toBe(200);
    const signedOut = await events('signed_out', 'acme');
    expect(signedOut[0]).toMatchObject({
      actor: { type: 'user', id: `oidc:${BOB.sub}` },
      details: { outcome: 'success', role: 'approver' },
    });
    // Signing out again (an ended session) adds nothing.
    await post(browser, '/v1/auth/logout', {}, csrf);
    expect(await events('signed_out', 'acme')).toHaveLength(signedOut.length);
  });

  it('keeps API keys as they were: a key wins over a cookie and needs no CSRF token', async () => {
    const { browser } = await signIn(ALICE.sub);
    const { approvalId } = await park(await gw.createKey('agent', 'acme'));
    const approverKey = await gw.createKey('approver', 'acme');
    const res = await browser.request(`${gw.url}/v1/approvals/${approvalId}/deny`, {
      method: 'POST',
      headers: { authorization: `Bearer ${approverKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ comment: 'by key' }),
    });
    expect(res.status).toBe(200);
    expect((await json(res)).data.approval.decisions[0]).toMatchObject({ approverType: 'api_key' });
    expect((await gw.api('GET', '/v1/me')).body.data).toMatchObject({
      principalType: 'api_key',
      role: 'platform_admin',
    });
  });
});
