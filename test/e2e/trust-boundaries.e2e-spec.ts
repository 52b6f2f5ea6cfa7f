import { DemoBackends } from '@toolgate/tool-packs/testing';
import {
  makeConfigDir,
  startTestGateway,
  TEST_ADMIN_KEY,
  testDatabaseKind,
  type TestGateway,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { TestToolsModule } from './test-tools.js';
import { TRUSTCO_YAML, TrustToolsModule } from './trust-tools.js';

/**
 * The trust boundaries of docs/security-model.md that a tenant admin, an agent key or another tenant could
 * cross through the API. Each test names the boundary it holds; each failed on the code before it.
 */
describe('trust boundaries', () => {
  let gw: TestGateway;
  let acmeAdmin: string;
  let acmeAuditor: string;
  let agent: string;
  let otherAgent: string;
  let limitedAgent: string;
  let approver: string;
  let auditor: string;
  let globexAgent: string;

  beforeAll(async () => {
    // Connector placeholders read the process environment (the gateway runs in this process).
    process.env.TOOLGATE_T_ACME__PROBE = 'acme-own-value';
    gw = await startTestGateway({
      env: { TOOLGATE_CONFIG_DIR: makeConfigDir({ trustco: TRUSTCO_YAML }) },
      imports: [TestToolsModule, TrustToolsModule],
    });
    acmeAdmin = await gw.createKey('tenant_admin', 'acme');
    acmeAuditor = await gw.createKey('auditor', 'acme');
    agent = await gw.createKey('agent', 'trustco');
    otherAgent = await gw.createKey('agent', 'trustco');
    limitedAgent = await gw.createKey('agent', 'trustco', { agentTypes: ['other_agent'] });
    approver = await gw.createKey('approver', 'trustco');
    auditor = await gw.createKey('auditor', 'trustco');
    globexAgent = await gw.createKey('agent', 'globex');
  });
  afterAll(async () => {
    await gw?.close();
    // The next file in this worker shares the process environment (isolate: false).
    delete process.env.TOOLGATE_T_ACME__PROBE;
  });

  const invoke = (
    key: string,
    tool: string,
    input: unknown,
    extra: { sessionId?: string; headers?: Record<string, string>; body?: Record<string, unknown> } = {},
  ) =>
    gw.api('POST', `/v1/agents/ops_assistant/tools/${tool}/invoke`, {
      key,
      body: { input, ...(extra.sessionId ? { sessionId: extra.sessionId } : {}), ...extra.body },
      headers: extra.headers,
    });
  const acmeFile = async () =>
    parse((await gw.api('GET', '/v1/admin/tenants/acme/export', { key: acmeAdmin })).text);
  const importAcme = (doc: unknown, key = acmeAdmin) =>
    gw.api('POST', '/v1/admin/tenants/acme/import', { key, body: { yaml: stringify(doc) } });
  const tenantEvents = async (tenant: string, key: string) =>
    (await gw.api('GET', `/v1/audit/events?tenantId=${tenant}&event=tenant_changed`, { key })).body.data
      .items;

  describe('a tenant admin and the platform’s secrets', () => {
    it('cannot read a platform variable through a connector placeholder, not even as platform admin', async () => {
      for (const variable of ['TOOLGATE_ADMIN_KEY', 'DATABASE_URL', 'TOOLGATE_AUDIT_SECRET', 'HOME']) {
        const doc = await acmeFile();
        doc.connectors.ops_api.baseUrl = `\${DEMO_OPS_URL}/leak/\${${variable}}`;
        const byTenant = await importAcme(doc);
        expect(byTenant.status).toBe(403);
        const byPlatform = await importAcme(doc, TEST_ADMIN_KEY);
        expect(byPlatform.status).toBe(400);
        expect(byPlatform.body.code).toBe('INVALID_INPUT');
        expect(byPlatform.text).toContain(`\${${variable}} is not a variable of this tenant`);
        expect(byPlatform.text).not.toContain(TEST_ADMIN_KEY);
      }
    });

    it('cannot read another tenant’s variables; its own namespace resolves', async () => {
      const doc = await acmeFile();
      doc.connectors.ops_api.token = '${TOOLGATE_T_GLOBEX__OPS_TOKEN:-x}';
      expect((await importAcme(doc, TEST_ADMIN_KEY)).status).toBe(400);
      doc.connectors.ops_api.token = '${TOOLGATE_T_ACME_X__TOKEN:-x}';
      expect((await importAcme(doc, TEST_ADMIN_KEY)).status).toBe(400);
      doc.connectors.ops_api.token = '${TOOLGATE_T_ACME__PROBE}';
      expect((await importAcme(doc, TEST_ADMIN_KEY)).status).toBe(200);
    });

    it('cannot point a connector elsewhere, swap its secret or add one; the platform admin can', async () => {
      const cases: [string, (d: any) => void][] = [
        ['baseUrl', (d) => (d.connectors.ops_api.baseUrl = 'https://attacker.example')],
        ['token', (d) => (d.connectors.ops_api.token = 'a-literal-token')],
        [
          'new connector',
          (d) => (d.connectors.yonyou_nc = { baseUrl: 'https://x.example', appKey: 'k', appSecret: 's' }),
        ],
        ['removed connector', (d) => delete d.connectors.sap],
        ['placeholder in a setting', (d) => (d.connectors.sap.client = '${TOOLGATE_T_ACME__PROBE}')],
      ];
      for (const [what, change] of cases) {
        const doc = await acmeFile();
        change(doc);
        const refused = await importAcme(doc);
        expect(refused.status, what).toBe(403);
        expect(refused.body.code).toBe('FORBIDDEN');
        expect(refused.body.details.refused[0].path).toMatch(/^connectors\./);
      }
      const doc = await acmeFile();
      const original = doc.connectors.ops_api.baseUrl;
      doc.connectors.ops_api.baseUrl = `${original}/v2`;
      expect((await importAcme(doc, TEST_ADMIN_KEY)).status).toBe(200);
      doc.connectors.ops_api.baseUrl = original;
      expect((await importAcme(doc, TEST_ADMIN_KEY)).status).toBe(200);
    });

    it('changes settings in the open: every tenant change is in the trail with its content', async () => {
      const doc = await acmeFile();
      doc.connectors.sap.client = '200';
      doc.audit = { redaction: { patterns: [] } };
      doc.quotas = [{ scope: 'tenant', tool: '*', perMinute: 1000 }];
      expect((await importAcme(doc)).status).toBe(200);
      const platformChange = await acmeFile();
      platformChange.connectors.sap.password = 'literal-secret-in-a-file';
      expect((await importAcme(platformChange, TEST_ADMIN_KEY)).status).toBe(200);

      const events = await tenantEvents('acme', acmeAuditor);
      const [secretChange, settingsChange] = events;
      expect(settingsChange.details.changes).toEqual(
        expect.arrayContaining([
          { path: 'connectors.sap.client', before: '100', after: '200' },
          { path: 'settings.audit', after: { redaction: { patterns: [] } } },
          { path: 'settings.quotas', after: [{ scope: 'tenant', tool: '*', perMinute: 1000 }] },
        ]),
      );
      expect(secretChange.details.changes).toEqual([
        {
          path: 'connectors.sap.password',
          before: '${TOOLGATE_T_ACME__SAP_PASSWORD:-[REDACTED]}',
          after: '[REDACTED]',
        },
      ]);
      expect(JSON.stringify(events)).not.toContain('literal-secret-in-a-file');
      expect(JSON.stringify(events)).not.toContain('demo-sap-password');
    });

    it('never sees a URL path in an upstream error', async () => {
      const doc = await acmeFile();
      doc.connectors.ops_api.baseUrl = '${DEMO_OPS_URL}/private-path-c0ffee';
      expect((await importAcme(doc, TEST_ADMIN_KEY)).status).toBe(200);
      const acmeAgent = await gw.createKey('agent', 'acme');
      const res = await gw.api('POST', '/v1/agents/ops_assistant/tools/get_service_status/invoke', {
        key: acmeAgent,
        body: { input: { service: 'payment-api' } },
      });
      expect(res.body.code).toBe('UPSTREAM_ERROR');
      expect(res.text).not.toContain('c0ffee');
      expect(res.text).not.toMatch(/https?:\/\//);
    });
  });

  describe('call identity', () => {
    it('mints every call id: a client-chosen callId is refused', async () => {
      const res = await invoke(
        agent,
        'get_service_status',
        { service: 'payment-api' },
        {
          body: { callId: 'chosen-by-client-0001' },
        },
      );
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_INPUT');
      expect(res.text).toContain('callId');
    });

    it('keeps another tenant’s parked call out of reach: it runs exactly once, after its approval', async () => {
      const restarts = () => gw.app.get(DemoBackends).ops.stats.restarts;
      const parked = await invoke(agent, 'restart_service', { service: 'search-api', reason: 'trust test' });
      expect(parked.status).toBe(202);
      const { callId, approvalId } = parked.body;
      const reuse = await gw.api('POST', '/v1/agents/ops_assistant/tools/restart_service/invoke', {
        key: globexAgent,
        body: { input: { service: 'search-api', reason: 'hijack' }, callId },
      });
      expect(reuse.status).toBe(400);
      expect((await gw.api('GET', `/v1/calls/${callId}`, { key: globexAgent })).status).toBe(404);
      const before = restarts();
      const decided = await gw.api('POST', `/v1/approvals/${approvalId}/approve`, {
        key: approver,
        body: {},
      });
      expect(decided.body.data.call).toMatchObject({ status: 'succeeded' });
      expect(restarts()).toBe(before + 1);
      expect((await gw.api('GET', `/v1/calls/${callId}`, { key: agent })).body.data.result).toMatchObject({
        status: 'ok',
      });
    });

    it('compares idempotency keys byte for byte on every database', async () => {
      const first = await invoke(
        agent,
        'lookup_customer',
        { id: 'c-1' },
        {
          headers: { 'idempotency-key': 'IdemCase-ABC' },
        },
      );
      const second = await invoke(
        agent,
        'lookup_customer',
        { id: 'c-2' },
        {
          headers: { 'idempotency-key': 'idemcase-abc' },
        },
      );
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.headers.get('idempotent-replayed')).toBeNull();
      expect(second.headers.get('x-call-id')).not.toBe(first.headers.get('x-call-id'));
      expect(second.body.data.id).toBe('c-2');
    });

    it('answers another key of the tenant reusing an Idempotency-Key with a conflict, never its result', async () => {
      const mine = await invoke(
        agent,
        'lookup_customer',
        { id: 'c-9' },
        {
          headers: { 'idempotency-key': 'shared-key-1' },
        },
      );
      expect(mine.status).toBe(200);
      const theirs = await invoke(
        otherAgent,
        'lookup_customer',
        { id: 'c-9' },
        {
          headers: { 'idempotency-key': 'shared-key-1' },
        },
      );
      expect(theirs.status).toBe(409);
      expect(theirs.text).not.toContain('13812345678');
    });
  });

  describe('approvals', () => {
    const notice = (key: string, sessionId: string) =>
      invoke(key, 'send_notice', { channel: 'sms', text: '今晚维护' }, { sessionId });

    it('binds a once() grant to the principal that asked, not to whoever sends its session id', async () => {
      const parked = await notice(agent, 'shared-session');
      expect(parked.status).toBe(202);
      await gw.api('POST', `/v1/approvals/${parked.body.approvalId}/approve`, { key: approver, body: {} });
      expect((await notice(agent, 'shared-session')).status).toBe(200);
      const other = await notice(otherAgent, 'shared-session');
      expect(other.status).toBe(202);
      expect(other.body.code).toBe('APPROVAL_PENDING');
    });

    it('shows the approver the redacted input: no secret in the prompt, the inbox or the trail', async () => {
      const parked = await invoke(agent, 'rotate_credential', {
        account: 'svc-backup',
        password: 'Hunter2-Pass!',
        pin: '424242',
        note: 'call 13812345678',
      });
      expect(parked.status).toBe(202);
      const approval = (await gw.api('GET', `/v1/approvals/${parked.body.approvalId}`, { key: approver }))
        .body.data;
      const story = (await gw.api('GET', `/v1/audit/calls/${parked.body.callId}`, { key: auditor })).body
        .data;
      for (const text of [JSON.stringify(approval), JSON.stringify(story)]) {
        expect(text).not.toContain('Hunter2-Pass!');
        expect(text).not.toContain('424242');
        expect(text).not.toContain('13812345678');
        expect(text).toContain('svc-backup');
      }
      expect(approval.prompt).toContain('[REDACTED]');
    });

    it('reports a tool prompt that throws, to the approver and in the trail', async () => {
      const parked = await invoke(agent, 'broken_prompt', { target: 'db-1' });
      expect(parked.status).toBe(202);
      const approval = (await gw.api('GET', `/v1/approvals/${parked.body.approvalId}`, { key: approver }))
        .body.data;
      expect(approval.promptError).toContain('template variable missing');
      expect(approval.prompt).toContain('db-1');
      const story = (await gw.api('GET', `/v1/audit/calls/${parked.body.callId}`, { key: auditor })).body
        .data;
      expect(story.events[0].details.promptError).toContain('template variable missing');
    });

    it('answers a denied call in the language its caller asked in', async () => {
      const parked = await invoke(
        agent,
        'broken_prompt',
        { target: 'db-2' },
        {
          headers: { 'accept-language': 'zh-CN' },
        },
      );
      await gw.api('POST', `/v1/approvals/${parked.body.approvalId}/deny`, {
        key: approver,
        body: { comment: '不批准' },
      });
      const call = (await gw.api('GET', `/v1/calls/${parked.body.callId}`, { key: agent })).body.data;
      expect(call.status).toBe('denied');
      expect(call.result.code).toBe('APPROVAL_DENIED');
      expect(call.result.error).toMatch(/[\u4e00-\u9fff]/);
    });
  });

  describe('readers and deciders', () => {
    it('lets an auditor and an approver change nothing', async () => {
      const bindings = '/v1/admin/tenants/trustco/agents/other_agent/bindings';
      for (const key of [auditor, approver]) {
        const attempts = [
          await gw.api('PUT', bindings, { key, body: { version: 1, tools: [] } }),
          await gw.api('POST', '/v1/admin/keys', { key, body: { name: 'x', role: 'agent' } }),
          await gw.api('POST', '/v1/admin/tenants/trustco/import', { key, body: { yaml: 'id: trustco' } }),
          await gw.api('POST', '/v1/agents/ops_assistant/tools/get_service_status/invoke', {
            key,
            body: { input: { service: 'payment-api' } },
          }),
        ];
        for (const res of attempts) expect([401, 403]).toContain(res.status);
      }
      const parked = await invoke(agent, 'broken_prompt', { target: 'db-3' });
      const byAuditor = await gw.api('POST', `/v1/approvals/${parked.body.approvalId}/approve`, {
        key: auditor,
        body: {},
      });
      expect(byAuditor.status).toBe(403);
      expect((await gw.api('GET', '/v1/audit/events', { key: approver })).status).toBe(403);
    });

    it('runs nothing when someone edits a parked call’s stored input in the database', async () => {
      const { openRawSql } = await import('@toolgate/testing');
      const restarts = () => gw.app.get(DemoBackends).ops.stats.restarts;
      const parked = await invoke(agent, 'restart_service', {
        service: 'search-api',
        reason: 'db edit test',
      });
      const sql = await openRawSql(gw.db);
      try {
        await sql.query('UPDATE tool_calls SET input = ? WHERE tenant_id = ? AND call_id = ?', [
          JSON.stringify({ service: 'payment-api', reason: 'db edit test' }),
          'trustco',
          parked.body.callId,
        ]);
      } finally {
        await sql.close();
      }
      const before = restarts();
      const decided = await gw.api('POST', `/v1/approvals/${parked.body.approvalId}/approve`, {
        key: approver,
        body: {},
      });
      expect(decided.body.data.call).toMatchObject({
        status: 'failed',
        result: { code: 'APPROVAL_MISMATCH' },
      });
      expect(restarts()).toBe(before);
    });
  });

  describe('results', () => {
    it('gives the full result to the caller in its answer, the stored redacted one to every reader after, 404 elsewhere', async () => {
      const done = await invoke(agent, 'lookup_customer', { id: 'c-3' });
      expect(done.body.data.phone).toBe('13812345678');
      const callId = done.headers.get('x-call-id')!;
      const view = async (key: string) => gw.api('GET', `/v1/calls/${callId}`, { key });
      // Once a call ended its record keeps the redacted result only (issue 23, ADR 036).
      const tenantAdmin = await gw.createKey('tenant_admin', 'trustco');
      for (const reader of [agent, tenantAdmin, auditor, approver, otherAgent]) {
        const redacted = (await view(reader)).body.data;
        expect(redacted.redacted).toBe(true);
        expect(JSON.stringify(redacted)).not.toContain('13812345678');
        expect(redacted.result.data.phone).toBe('138****5678');
      }
      expect((await view(limitedAgent)).status).toBe(404);
      expect((await view(globexAgent)).status).toBe(404);
    });

    it('never lets a tool’s own code pass for a platform answer', async () => {
      for (const code of ['RATE_LIMITED', 'APPROVAL_PENDING', 'INTERNAL_ERROR', 'AUDIT_UNAVAILABLE']) {
        for (const how of ['tool_error', 'nested', 'code_only'] as const) {
          const res = await invoke(agent, 'fails_like_platform', { how, code });
          expect(res.status, `${how} ${code}`).toBe(200);
          expect(res.headers.get('retry-after')).toBeNull();
          if (how === 'tool_error') {
            expect(res.body.code).toBe('UPSTREAM_ERROR');
            expect(res.body.error).toContain('reserved for the platform');
          }
        }
      }
    });
  });

  it.runIf(testDatabaseKind() === 'mariadb')(
    'stores identifiers with a binary collation on MariaDB',
    async () => {
      const { openRawSql } = await import('@toolgate/testing');
      const sql = await openRawSql(gw.db);
      try {
        const rows = await sql.query<{ TABLE_NAME: string; COLUMN_NAME: string; COLLATION_NAME: string }>(
          `SELECT TABLE_NAME, COLUMN_NAME, COLLATION_NAME FROM information_schema.COLUMNS
          WHERE TABLE_SCHEMA = DATABASE() AND COLUMN_NAME IN ('call_id', 'idem_key', 'session_id', 'grant_key')`,
        );
        expect(rows.length).toBeGreaterThan(4);
        for (const r of rows) expect(`${r.TABLE_NAME}.${r.COLUMN_NAME} ${r.COLLATION_NAME}`).toMatch(/_bin$/);
      } finally {
        await sql.close();
      }
    },
  );
});
