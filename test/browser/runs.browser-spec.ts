import { startTestGateway, type TestGateway } from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureConsoleBuilt,
  launchConsoleBrowser,
  screenshot,
  signIn,
  type ConsoleBrowser,
} from './console-browser.js';

/** The demo planner (offline) answers this with get_service_status for payment-api. */
const STATUS_QUESTION = 'payment-api 的状态怎么样？';
/** …and this with restart_service, an L3 tool: the run parks for an approval. */
const RESTART_QUESTION = '请重启 payment-api，滚动发布后内存泄漏';

describe('agent runs in the console', () => {
  let gw: TestGateway;
  let browser: ConsoleBrowser;
  let base: string;
  let acmeAgent: string;
  let acmeAdmin: string;
  let auditor: string;

  beforeAll(async () => {
    ensureConsoleBuilt();
    gw = await startTestGateway({ kind: 'sqlite' });
    base = `${gw.url}/console`;
    browser = await launchConsoleBrowser();
    acmeAgent = await gw.createKey('agent', 'acme');
    acmeAdmin = await gw.createKey('tenant_admin', 'acme');
    auditor = await gw.createKey('auditor', 'acme');
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  const open = async (key: string, path: string, language: 'zh-CN' | 'en' = 'zh-CN') => {
    const page = await browser.newPage(language);
    await signIn(page, base, key);
    await page.goto(`${base}${path}`);
    return page;
  };
  const startRun = (input: string) =>
    gw.api('POST', '/v1/agents/ops_assistant/runs', { key: acmeAgent, body: { input } });

  it('lists a finished run and shows it as a transcript: question, tool call, answer', async () => {
    const started = await startRun(STATUS_QUESTION);
    expect(started.status).toBe(200);
    const run = started.body.data;
    expect(run.status).toBe('completed');

    const page = await open(acmeAdmin, '/runs');
    const row = page.locator(`[data-testid="runs-table"] tr[data-run-id="${run.runId}"]`);
    await row.waitFor();
    const rowText = await row.innerText();
    expect(rowText).toContain('ops_assistant');
    expect(rowText).toContain('已完成');
    // The offline demo model says what it is.
    expect(rowText).toContain('演示规划器（离线）');
    await screenshot(page, 'runs-list');

    await row.click();
    await page.getByTestId('run-transcript').waitFor();
    expect(page.url()).toContain(`/console/runs/${run.runId}`);
    expect(await page.getByTestId('run-question').innerText()).toContain(STATUS_QUESTION);
    const call = page.locator('[data-testid="run-tool-call"][data-tool="get_service_status"]');
    expect(await call.getAttribute('data-status')).toBe('succeeded');
    expect(await page.getByTestId('run-answer').innerText()).toContain(run.output.trim().slice(0, 20));
    // A finished run is not polled and cannot be cancelled.
    expect(await page.getByTestId('run-live').count()).toBe(0);
    expect(await page.getByTestId('run-cancel').count()).toBe(0);

    // The result envelope folds open.
    await call.getByText('结果信封').click();
    await call.getByText('"status": "ok"').waitFor();
    await screenshot(page, 'runs-transcript');
    await page.close();
  });

  it('shows a parked run waiting for its approval, and a tenant admin cancels it', async () => {
    const parked = await startRun(RESTART_QUESTION);
    expect(parked.status).toBe(202);
    expect(parked.body.code).toBe('APPROVAL_PENDING');
    const runId: string = parked.body.runId ?? parked.body.details.runId;

    const page = await open(acmeAdmin, `/runs/${runId}`);
    const card = page.getByTestId('run-page');
    await expect.poll(() => card.getAttribute('data-status')).toBe('awaiting_approval');
    await page.getByTestId('run-awaiting').waitFor();
    const call = page.locator('[data-testid="run-tool-call"][data-tool="restart_service"]');
    expect(await call.getAttribute('data-status')).toBe('pending_approval');
    expect(await call.getByTestId('call-approval').count()).toBe(1);
    await page.getByTestId('run-live').waitFor();
    await screenshot(page, 'runs-awaiting-approval');

    await page.getByTestId('run-cancel').click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /确\s*定|OK/ })
      .click();
    await expect.poll(() => card.getAttribute('data-status')).toBe('cancelled');
    await page.getByTestId('run-failure').waitFor();
    expect(await page.getByTestId('run-live').count()).toBe(0);
    const stored = await gw.api('GET', `/v1/runs/${runId}`, { key: acmeAdmin });
    expect(stored.body.data.status).toBe('cancelled');
    await screenshot(page, 'runs-cancelled');
    await page.close();
  });

  it('lets an auditor read runs in English, without a cancel button', async () => {
    const page = await open(auditor, '/runs', 'en');
    expect(await page.getByTestId('nav').innerText()).toContain('Agent runs');
    const rows = page.locator('[data-testid="runs-table"] tr[data-run-id]');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(2);
    expect(await page.getByTestId('runs-table').innerText()).toContain('demo planner, offline');

    // Filter by status: only the cancelled run is left.
    await page.getByTestId('filter-status').click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'Cancelled' }).click();
    await page.getByTestId('runs-search').click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(page.url()).toContain('status=cancelled');

    await rows.first().click();
    await page.getByTestId('run-transcript').waitFor();
    expect(await page.getByTestId('run-cancel').count()).toBe(0);
    expect(await page.getByTestId('run-summary').innerText()).toContain('Cancelled');
    await page.close();
  });

  it("shows the runs per agent type and the tenant's tokens today on the overview", async () => {
    // A daily limit for acme, set the way an admin would: its tenant file, through the API.
    const exported = await gw.api('GET', '/v1/admin/tenants/acme/export');
    const withLimit = `${exported.text}quotas:\n  - tokensPerDay: 100000\n`;
    expect(
      (await gw.api('POST', '/v1/admin/tenants/acme/import', { body: { yaml: withLimit } })).status,
    ).toBe(200);

    const page = await open(acmeAdmin, '/overview', 'en');
    const runs = page.locator('[data-testid="overview-runs"] tr[data-row-key="acme/ops_assistant"]');
    await runs.waitFor();
    // Two runs so far: one completed, one cancelled; the offline demo model spends no tokens.
    const cells = await runs.locator('td').allInnerTexts();
    expect(cells).toEqual(['acme', 'ops_assistant', '2', '1', '0', '1', '0', '0']);
    const today = page.locator('[data-testid="overview-tokens-today"]');
    expect(await today.innerText()).toContain(`UTC ${new Date().toISOString().slice(0, 10)}`);
    const acme = today.locator('tr[data-row-key="acme"]');
    await acme.waitFor();
    expect(await acme.innerText()).toMatch(/100[,.\s\u202f]?000/);
    await screenshot(page, 'overview-runs');
    await page.close();
  });

  it("leads from a run's audited call in the trail to the run's transcript", async () => {
    const parked = (await startRun(RESTART_QUESTION)).body;
    expect(parked.code).toBe('APPROVAL_PENDING');
    const decided = await gw.api('POST', `/v1/approvals/${parked.approvalId}/approve`, {
      key: acmeAdmin,
      body: { comment: 'ok' },
    });
    expect(decided.status).toBe(200);

    const page = await open(auditor, `/audit?view=events&callId=${encodeURIComponent(parked.callId)}`, 'en');
    const rows = page.getByTestId('audit-table').locator('tbody tr.ant-table-row');
    // Started, approval requested and decided, finished: the run resumed after the approval.
    await expect.poll(() => rows.count(), { timeout: 60_000 }).toBe(4);
    await rows.last().click(); // the oldest: the call's start
    const drawer = page.getByTestId('event-drawer');
    await drawer.waitFor();
    await drawer.getByTestId('open-timeline').click();
    const timeline = page.getByTestId('call-timeline');
    const link = timeline.getByTestId('event-run');
    await link.waitFor();
    expect(await link.innerText()).toBe(`Agent run ${parked.runId}, step 1`);
    await link.click();
    await page.getByTestId('run-transcript').waitFor();
    expect(page.url()).toContain(`/runs/${parked.runId}`);
    await page.close();
  });
});
