import { makeConfigDir, startTestGateway, type TestGateway } from '@toolgate/testing';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotificationPeers } from '../e2e/notification-peers.js';
import {
  ensureConsoleBuilt,
  launchConsoleBrowser,
  screenshot,
  SCREENSHOTS,
  signIn,
  type ConsoleBrowser,
} from './console-browser.js';

const SECRETS = {
  TOOLGATE_NOTIFY_ACME__WECOM_KEY: 'wecom-key-browser-7777',
  TOOLGATE_NOTIFY_ACME__HOOK_SECRET: 'whsec-browser-8888',
};

const notifications = (peer: string) => `
notifications:
  channels:
    ops-wecom: { type: wecom, url: ${peer}/cgi-bin/webhook/send, tokenEnv: TOOLGATE_NOTIFY_ACME__WECOM_KEY }
    audit-hook:
      type: webhook
      url: ${peer}/flaky
      secretEnv: TOOLGATE_NOTIFY_ACME__HOOK_SECRET
      description: SIEM intake
  routes:
    - { risk: [L3], channels: [ops-wecom, audit-hook] }
  reminders: { beforeExpiryMs: [600000] }
  escalation: { channel: ops-wecom, beforeExpiryMs: 300000 }
`;

/** The page polls; give it time on a busy two-core machine. */
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 60_000 });

/** Saves the screenshot for the docs too (`docs/screenshots/<name>.png`). */
async function docScreenshot(page: Page, name: string) {
  await screenshot(page, name);
  mkdirSync(resolve('docs/screenshots'), { recursive: true });
  copyFileSync(join(SCREENSHOTS, `${name}.png`), resolve('docs/screenshots', `${name}.png`));
}

describe('the notifications page: channels, delivery log, dead letters', () => {
  let gw: TestGateway;
  let peers: NotificationPeers;
  let browser: ConsoleBrowser;
  let page: Page;
  let base: string;
  let approvalId: string;

  beforeAll(async () => {
    ensureConsoleBuilt();
    Object.assign(process.env, SECRETS);
    peers = await new NotificationPeers().start();
    peers.failNext('/flaky', 3);
    const acme = readFileSync('config/tenants/acme.yaml', 'utf8') + notifications(peers.url);
    gw = await startTestGateway({
      kind: 'sqlite',
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir(
          { acme },
          'notifications:\n  pollMs: 200\n  retryBaseMs: 200\n  maxAttempts: 3\n',
        ),
      },
    });
    base = `${gw.url}/console`;
    const agent = await gw.createKey('agent', 'acme');
    const parked = await gw.api('POST', '/v1/agents/ops_assistant/tools/restart_service/invoke', {
      key: agent,
      body: { input: { service: 'payment-api', reason: '滚动发布后内存泄漏，需要重启' } },
    });
    approvalId = parked.body.approvalId;
    browser = await launchConsoleBrowser();
    page = await browser.newPage('zh-CN');
    await signIn(page, base, await gw.createKey('tenant_admin', 'acme'));
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await peers?.close();
    for (const k of Object.keys(SECRETS)) delete process.env[k];
  });

  it('shows the channels with their secrets as variable names only', async () => {
    await page.getByTestId('nav').getByText('审批通知').click();
    const table = page.getByTestId('channels-table');
    await eventually(() => table.innerText()).toContain('TOOLGATE_NOTIFY_ACME__WECOM_KEY');
    const text = await page.getByTestId('notifications-page').innerText();
    expect(text).toContain('企业微信机器人');
    expect(text).toContain('已设置');
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
    await docScreenshot(page, 'notifications-channels');
  });

  it('lists every delivery with its attempts, and retries a dead letter', async () => {
    await page.getByRole('tab', { name: '投递记录' }).click();
    const log = page.getByTestId('delivery-log');
    await eventually(() => log.innerText()).toContain('失败（死信）');
    await eventually(() => log.innerText()).toContain('已送达');
    await log.locator('.ant-table-row-expand-icon').first().click();
    await docScreenshot(page, 'notifications-deliveries');

    await page.getByRole('tab', { name: '死信' }).click();
    const dead = page.getByTestId('dead-letters');
    await eventually(() => dead.innerText()).toContain('audit-hook');
    await docScreenshot(page, 'notifications-dead-letters');
    await dead.getByTestId('retry-delivery').first().click();
    await eventually(() => dead.innerText()).toContain('没有死信');
    await page.getByRole('tab', { name: '投递记录' }).click();
    await eventually(async () => (await log.innerText()).includes('失败（死信）')).toBe(false);
    expect(peers.about('/flaky', approvalId).filter((m) => m.body.event === 'approval.request')).toHaveLength(
      1,
    );
  });

  it("opens the approval a message links to, at the link's address", async () => {
    await page.goto(`${base}/approvals/${approvalId}`);
    const card = page.getByTestId('approval-link-page');
    await eventually(() => card.innerText()).toContain('restart_service');
    await docScreenshot(page, 'notifications-approval-link');
    expect(browser.pageErrors).toEqual([]);
  });
});
