import {
  freePort,
  makeConfigDir,
  startLoopbackIdp,
  startTestGateway,
  type LoopbackIdp,
  type TestGateway,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureConsoleBuilt,
  launchConsoleBrowser,
  screenshot,
  type ConsoleBrowser,
} from './console-browser.js';

const ALICE = { sub: 'alice-0001', name: '王丽', email: 'alice@acme.example', groups: ['acme-approvers'] };
const CAROL = { sub: 'carol-0003', name: 'Carol', email: 'carol@elsewhere.example', groups: ['staff'] };
const RESTART = { service: 'payment-api', reason: '发布后内存泄漏，需要重启' };

describe('signing in to the console through the loopback IdP', () => {
  let idp: LoopbackIdp;
  let gw: TestGateway;
  let browser: ConsoleBrowser;

  beforeAll(async () => {
    ensureConsoleBuilt();
    const port = await freePort();
    const redirectUrl = `http://127.0.0.1:${port}/v1/auth/oidc/callback`;
    idp = await startLoopbackIdp(redirectUrl, [ALICE, CAROL]);
    const platformYaml = `
auth:
  oidc:
    displayName: Keycloak
    issuer: ${idp.issuer}
    clientId: ${idp.clientId}
    clientSecretEnv: TEST_OIDC_CLIENT_SECRET
    redirectUrl: ${redirectUrl}
    rules:
      - { claim: groups, equals: acme-approvers, role: approver, tenantId: acme }
`;
    gw = await startTestGateway({
      kind: 'sqlite',
      port,
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir({}, platformYaml),
        TEST_OIDC_CLIENT_SECRET: idp.clientSecret,
      },
    });
    browser = await launchConsoleBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await idp?.close();
  });

  it('signs a person in with the button, shows their name, and approves with the session (CSRF header sent)', async () => {
    const agent = await gw.createKey('agent', 'acme');
    const parked = await gw.api('POST', '/v1/agents/ops_assistant/tools/restart_service/invoke', {
      key: agent,
      body: { input: RESTART },
    });
    expect(parked.status).toBe(202);
    const callId: string = parked.body.callId;

    idp.signInAs(ALICE.sub);
    const page = await browser.newPage();
    await page.goto(`${gw.url}/console/`);
    const button = page.getByTestId('sso-sign-in');
    expect(await button.innerText()).toContain('使用 Keycloak 登录');
    await screenshot(page, 'sign-in-sso');
    await button.click();
    await page.getByTestId('whoami').waitFor();
    expect(await page.getByTestId('whoami').innerText()).toContain(ALICE.name);

    const item = page.locator(`[data-testid="approval-item"][data-call-id="${callId}"]`);
    await item.waitFor({ timeout: 60_000 });
    await screenshot(page, 'sso-approvals-inbox');
    await item.getByTestId('approve').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: /批\s*准/ }).click();
    await item.waitFor({ state: 'detached', timeout: 60_000 });
    const call = (await gw.api('GET', `/v1/calls/${callId}`)).body.data;
    expect(call.decidedBy).toEqual({
      type: 'user',
      id: `oidc:${ALICE.sub}`,
      name: ALICE.name,
      email: ALICE.email,
    });

    await page.getByTestId('sign-out').click();
    await page.getByTestId('sign-in').waitFor();
    await page.reload();
    await page.getByTestId('sign-in').waitFor(); // the server session is over, not only the tab's
    await page.close();
  });

  it('shows a person no rule maps the no-access page', async () => {
    idp.signInAs(CAROL.sub);
    const page = await browser.newPage();
    // The tabs share one profile: without this the IdP would still know Alice from the test above.
    await page.context().clearCookies();
    await page.goto(`${gw.url}/console/`);
    await page.getByTestId('sso-sign-in').click();
    await page.getByTestId('no-access').waitFor();
    expect(page.url()).toContain('/console/no-access');
    await screenshot(page, 'sso-no-access');
    await page.close();
    expect(browser.pageErrors).toEqual([]);
  });
});
