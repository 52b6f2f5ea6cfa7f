import { startTestGateway, TEST_ADMIN_KEY, type TestGateway } from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureConsoleBuilt, launchConsoleBrowser, signIn, type ConsoleBrowser } from './console-browser.js';

/** The console's menu, in English (the page ids' labels of en.ts). */
const LABELS: Record<string, string> = {
  overview: 'Overview',
  tools: 'Tool catalog',
  bindings: 'Bindings',
  upstreams: 'Upstream servers',
  approvals: 'Approvals',
  notifications: 'Notifications',
  audit: 'Audit trail',
  runs: 'Agent runs',
  keys: 'API keys',
};

/**
 * The console follows the separated administrators of the dengbao3 profile (ADR 039): each sees
 * in its menu only the pages of its powers, as the gateway's power table gives them.
 */
describe('the console under the dengbao3 profile', () => {
  let gw: TestGateway;
  let browser: ConsoleBrowser;

  beforeAll(async () => {
    ensureConsoleBuilt();
    gw = await startTestGateway({ kind: 'sqlite', env: { TOOLGATE_COMPLIANCE_PROFILE: 'dengbao3' } });
    browser = await launchConsoleBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  const menuOf = async (key: string) => {
    const page = await browser.newPage('en');
    await signIn(page, `${gw.url}/console`, key);
    const items = await page.getByTestId('nav').locator('li').allInnerTexts();
    const landedOn = new URL(page.url()).pathname;
    await page.close();
    return { items: items.map((s) => s.trim()), landedOn };
  };
  const pages = (...ids: string[]) => ids.map((id) => LABELS[id]);

  it('shows each administrator its own pages, and platform_admin none of theirs', async () => {
    expect((await menuOf(await gw.createKey('audit_admin'))).items).toEqual(pages('overview', 'audit'));
    expect((await menuOf(await gw.createKey('system_admin'))).items).toEqual(
      pages('overview', 'tools', 'upstreams', 'notifications'),
    );
    expect((await menuOf(await gw.createKey('security_admin'))).items).toEqual(
      pages('overview', 'tools', 'bindings', 'keys'),
    );
    const platform = await menuOf(TEST_ADMIN_KEY);
    expect(platform.items).toEqual(pages('approvals', 'runs', 'keys'));
    expect(platform.landedOn).toBe('/console/approvals');
    expect(browser.pageErrors).toEqual([]);
  });
});
