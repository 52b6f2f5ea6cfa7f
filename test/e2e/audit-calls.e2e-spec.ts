import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallProjector } from '@toolgate/audit';
import { startTestGateway, waitFor, type TestGateway } from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const RESTART = (service: string) => ({ service, reason: '滚动发布后内存泄漏，需要重启' });

/** GET /v1/audit/calls (issue 23, ADR 033): the call as the auditor's unit, on both databases. */
describe('the calls an auditor questions', () => {
  let gw: TestGateway;
  let agent: { id: string; key: string };
  let approver: { id: string; key: string };
  let auditor: string;
  let tenantAdmin: string;
  let globexAuditor: string;
  const callIds: Record<string, string> = {};

  const createKey = async (name: string, role: string, tenantId?: string) => {
    const res = await gw.api('POST', '/v1/admin/keys', { body: { name, role, tenantId } });
    expect(res.status).toBe(201);
    return { id: res.body.data.id as string, key: res.body.data.key as string };
  };
  const calls = (query: string, key = auditor) => gw.api('GET', `/v1/audit/calls?${query}`, { key });
  const invoke = (tool: string, input: unknown) =>
    gw.api('POST', `/v1/agents/ops_assistant/tools/${tool}/invoke`, { key: agent.key, body: { input } });
  const decide = (approvalId: string, verb: 'approve' | 'deny') =>
    gw.api('POST', `/v1/approvals/${approvalId}/${verb}`, { key: approver.key, body: { comment: 'ok' } });

  beforeAll(async () => {
    gw = await startTestGateway();
    agent = await createKey('ops-bot 运维机器人', 'agent', 'acme');
    approver = await createKey('王经理', 'approver', 'acme');
    auditor = (await createKey('审计员', 'auditor', 'acme')).key;
    tenantAdmin = (await createKey('acme admin', 'tenant_admin', 'acme')).key;
    globexAuditor = (await createKey('globex auditor', 'auditor', 'globex')).key;

    const approved = await invoke('restart_service', RESTART('payment-api'));
    expect(approved.status).toBe(202);
    callIds.approved = approved.body.callId;
    expect((await decide(approved.body.approvalId, 'approve')).status).toBe(200);
    const denied = await invoke('restart_service', RESTART('billing-api'));
    callIds.denied = denied.body.callId;
    expect((await decide(denied.body.approvalId, 'deny')).status).toBe(200);
    const logs = await invoke('read_logs', { service: 'payment-api' });
    expect(logs.status).toBe(200);
    callIds.logs = logs.headers.get('x-call-id')!;
    await waitFor(
      async () => (await calls('limit=10')).body.data.items.some((c: any) => c.callId === callIds.logs),
      { what: 'the projection to reach the last call' },
    );
  });
  afterAll(() => gw?.close());

  it('answers "who approved restart_service on payment-api yesterday, and what input did the agent send?" in one request', async () => {
    const since = new Date(Date.now() - 24 * 3600_000).toISOString();
    const res = await calls(
      `tool=restart_service&target=${encodeURIComponent('service=payment-api')}&from=${encodeURIComponent(since)}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.items).toHaveLength(1);
    expect(res.body.data.items[0]).toMatchObject({
      tenantId: 'acme',
      callId: callIds.approved,
      agentType: 'ops_assistant',
      tool: 'restart_service',
      face: 'rest',
      target: 'service=payment-api',
      input: RESTART('payment-api'),
      state: 'succeeded',
      status: 'ok',
      code: null,
      requester: { type: 'api_key', id: agent.id, name: 'ops-bot 运维机器人' },
      approvers: [{ type: 'api_key', id: approver.id, name: '王经理', decision: 'approve' }],
      runId: null,
    });
    const row = res.body.data.items[0];
    expect(row.events).toBe(4); // approval_requested, approval_decided, started, finished
    expect(Date.parse(row.finishedAt)).toBeGreaterThanOrEqual(Date.parse(row.startedAt));
  });

  it('filters on agent type, state, code, a person by name or id, input values and target values', async () => {
    const ids = async (query: string) =>
      (await calls(query)).body.data.items.map((c: any) => c.callId).sort() as string[];
    const all = [callIds.approved, callIds.denied, callIds.logs].sort();
    expect(await ids('agentType=ops_assistant')).toEqual(all);
    expect(await ids('agentType=contract_review')).toEqual([]);
    expect(await ids('state=denied')).toEqual([callIds.denied]);
    expect(await ids('code=APPROVAL_DENIED')).toEqual([callIds.denied]);
    expect(await ids(`person=${encodeURIComponent('王经理')}`)).toEqual(
      [callIds.approved, callIds.denied].sort(),
    );
    expect(await ids(`approver=${approver.id}`)).toEqual([callIds.approved, callIds.denied].sort());
    expect(await ids(`requester=${encodeURIComponent('OPS-BOT 运维机器人')}`)).toEqual(all);
    expect(await ids(`person=${agent.id}`)).toEqual(all);
    expect(await ids('input=service%3Dpayment-api')).toEqual([callIds.approved, callIds.logs].sort());
    expect(await ids('target=billing-api')).toEqual([callIds.denied]);
    expect(await ids('riskLevel=L1')).toEqual([callIds.logs]);
    expect(await ids('face=mcp')).toEqual([]);
    expect((await calls('unknown=1')).status).toBe(400);
  });

  it('pages newest first with a cursor', async () => {
    const first = await calls('limit=2');
    expect(first.body.data.items.map((c: any) => c.callId)).toEqual([callIds.logs, callIds.denied]);
    const second = await calls(`limit=2&cursor=${first.body.data.nextCursor}`);
    expect(second.body.data.items.map((c: any) => c.callId)).toEqual([callIds.approved]);
    expect(second.body.data.nextCursor).toBeNull();
    expect((await calls('cursor=bm90LWEtY3Vyc29y')).status).toBe(400);
  });

  it('pages one call at a time through the same order as one page, across tenants and by term', async () => {
    // A page is merged from one index read per tenant (and per term): ADR 051.
    const walk = async (query: string, key?: string) => {
      const ids: string[] = [];
      let cursor: string | null = '';
      do {
        const res: { status: number; body: any } = await gw.api(
          'GET',
          `/v1/audit/calls?${query}&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
          {
            ...(key ? { key } : {}),
          },
        );
        expect(res.status).toBe(200);
        ids.push(...res.body.data.items.map((c: any) => `${c.tenantId}/${c.callId}`));
        cursor = res.body.data.nextCursor;
      } while (cursor);
      return ids;
    };
    const whole = async (query: string, key?: string) =>
      (
        await gw.api('GET', `/v1/audit/calls?${query}&limit=200`, { ...(key ? { key } : {}) })
      ).body.data.items.map((c: any) => `${c.tenantId}/${c.callId}`);
    // The platform admin's view holds every tenant's calls (the refusals below add more tenants' rows).
    const all = await whole('');
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(await walk('')).toEqual(all);
    // A person by name: the name's id and the name itself as an id are two terms, two reads merged.
    const byName = await whole('person=ops-bot%20%E8%BF%90%E7%BB%B4%E6%9C%BA%E5%99%A8%E4%BA%BA', auditor);
    expect(byName).toHaveLength(3);
    expect(await walk('person=ops-bot%20%E8%BF%90%E7%BB%B4%E6%9C%BA%E5%99%A8%E4%BA%BA', auditor)).toEqual(
      byName,
    );
    expect(await walk('target=payment-api&tool=read_logs', auditor)).toEqual([`acme/${callIds.logs}`]);
    // The pair with an index of its own (tool + status), and the same pair with no call matching.
    const pair = await whole('tool=restart_service&status=ok', auditor);
    expect(pair).toEqual([`acme/${callIds.approved}`]);
    expect(await walk('tool=restart_service&status=ok', auditor)).toEqual(pair);
    expect(await whole('tool=read_logs&status=error', auditor)).toEqual([]);
  });

  it('keeps readers to their tenant and lets tenant admins read their own trail', async () => {
    expect((await calls('tenantId=acme', globexAuditor)).status).toBe(403);
    expect((await calls('', globexAuditor)).body.data.items).toEqual([]);
    const asAdmin = await calls('tool=restart_service', tenantAdmin);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.data.items).toHaveLength(2);
    expect((await gw.api('GET', '/v1/audit/events?limit=1', { key: tenantAdmin })).status).toBe(200);
    expect((await gw.api('POST', '/v1/audit/checkpoints', { key: tenantAdmin, body: {} })).status).toBe(403);
    const agentRead = await calls('', agent.key);
    expect(agentRead.status).toBe(403);
  });

  it('maps key names to ids for auditors without the admin key list', async () => {
    const res = await gw.api('GET', '/v1/audit/principals', { key: auditor });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(
      expect.arrayContaining([
        { tenantId: 'acme', type: 'api_key', id: agent.id, name: 'ops-bot 运维机器人' },
        { tenantId: 'acme', type: 'api_key', id: approver.id, name: '王经理' },
      ]),
    );
    expect(res.body.data.every((p: any) => p.tenantId === 'acme')).toBe(true);
    expect((await gw.api('GET', '/v1/admin/keys', { key: auditor })).status).toBe(403);
  });

  it('rebuilds the same rows from the chain', async () => {
    const before = (await calls('limit=50')).body.data.items;
    await gw.app.get(CallProjector).rebuild('acme');
    expect((await calls('limit=50')).body.data.items).toEqual(before);
  });

  it('gives approvers the context: requester by name, earlier decisions on the same target, then the outcome', async () => {
    const parked = await invoke('restart_service', RESTART('payment-api'));
    const context = async () =>
      (await gw.api('GET', `/v1/approvals/${parked.body.approvalId}/context`, { key: approver.key })).body
        .data;
    const before = await waitFor(async () => {
      const c = await context();
      return c.call && c;
    });
    expect(before).toMatchObject({
      callId: parked.body.callId,
      requester: { id: agent.id, name: 'ops-bot 运维机器人' },
      target: 'service=payment-api',
      runId: null,
      call: { state: 'pending_approval' },
    });
    expect(before.earlier.map((c: any) => c.callId)).toEqual([callIds.approved]);
    expect(before.earlier[0].approvers[0]).toMatchObject({ name: '王经理', decision: 'approve' });
    expect((await decide(parked.body.approvalId, 'approve')).status).toBe(200);
    const after = await waitFor(async () => {
      const c = await context();
      return c.call.state === 'succeeded' && c;
    });
    expect(after.call).toMatchObject({ status: 'ok', approvers: [{ name: '王经理' }] });
    expect(
      (await gw.api('GET', `/v1/approvals/${parked.body.approvalId}/context`, { key: globexAuditor })).status,
    ).toBe(403);
  });

  describe('every refusal recorded', () => {
    const denials = async (tenantId: string, code: string) =>
      (await gw.api('GET', `/v1/audit/events?tenantId=${tenantId}&event=access_denied&code=${code}&limit=50`))
        .body.data.items as any[];

    it('records a refused request of an authenticated key as access_denied in its tenant trail, with the reason code', async () => {
      expect((await invoke('drop_database', {})).status).toBe(404);
      expect((await gw.api('GET', '/v1/admin/keys', { key: agent.key })).status).toBe(403);
      const globexApprover = await createKey('globex approver', 'approver', 'globex');
      const parked = await invoke('restart_service', RESTART('search-api'));
      expect(
        (
          await gw.api('POST', `/v1/approvals/${parked.body.approvalId}/approve`, {
            key: globexApprover.key,
            body: {},
          })
        ).status,
      ).toBe(404);
      const notFound = await waitFor(async () => (await denials('acme', 'TOOL_NOT_FOUND')).at(0), {
        what: 'the TOOL_NOT_FOUND refusal in the trail',
      });
      expect(notFound).toMatchObject({
        event: 'access_denied',
        actor: { type: 'api_key', id: agent.id },
        agentType: 'ops_assistant',
        tool: 'drop_database',
        status: 'error',
        code: 'TOOL_NOT_FOUND',
        details: { status: 404, route: 'POST /v1/agents/:agentType/tools/:toolName/invoke' },
      });
      const forbidden = await waitFor(async () => (await denials('acme', 'FORBIDDEN')).at(0));
      expect(forbidden).toMatchObject({
        actor: { id: agent.id },
        details: { status: 403, path: '/v1/admin/keys' },
      });
      const foreign = await waitFor(async () => (await denials('globex', 'NOT_FOUND')).at(0));
      expect(foreign).toMatchObject({
        actor: { id: globexApprover.id },
        details: { route: 'POST /v1/approvals/:approvalId/approve' },
      });
      // The acme trail holds none of globex's refusals.
      expect(await denials('acme', 'NOT_FOUND')).toEqual([]);
    });

    it('records refusals answered inside MCP responses (an unknown tool) like REST ones', async () => {
      // As agents use the SDK client: list, then call; the unknown tool is a JSON-RPC error.
      const client = new Client({ name: 'audit-e2e', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp/ops_assistant`), {
          requestInit: { headers: { authorization: `Bearer ${agent.key}` } },
        }),
      );
      try {
        expect((await client.listTools()).tools.length).toBeGreaterThan(0);
        await expect(client.callTool({ name: 'wipe_disks', arguments: {} })).rejects.toThrow(/wipe_disks/);
      } finally {
        await client.close();
      }
      const refused = await waitFor(
        async () => (await denials('acme', 'TOOL_NOT_FOUND')).find((e) => e.tool === 'wipe_disks'),
        { what: 'the MCP refusal in the trail' },
      );
      expect(refused).toMatchObject({
        event: 'access_denied',
        actor: { type: 'api_key', id: agent.id },
        code: 'TOOL_NOT_FOUND',
        details: { status: 404, route: 'POST /mcp/:agentType' },
      });
    });

    it('sends unknown and revoked keys to the security log and /metrics, not to a tenant chain', async () => {
      const revoked = await createKey('soon revoked', 'agent', 'acme');
      expect((await gw.api('DELETE', `/v1/admin/keys/${revoked.id}`)).status).toBe(200);
      const asRevoked = await gw.api('POST', '/v1/agents/ops_assistant/tools/read_logs/invoke', {
        key: revoked.key,
        body: { input: { service: 'payment-api' } },
      });
      expect(asRevoked.status).toBe(401);
      expect(
        (await gw.api('GET', '/v1/audit/events', { key: 'tg_not-a-key-at-all-0123456789' })).status,
      ).toBe(401);
      const metrics = await waitFor(async () => {
        const text = (await gw.api('GET', '/metrics')).text;
        // Both lookups run beside their answers: wait for the two.
        return (
          /toolgate_auth_failures_total\{reason="revoked"\} 1/.test(text) &&
          /toolgate_auth_failures_total\{reason="unknown"\} [1-9]/.test(text) &&
          text
        );
      });
      expect(metrics).toMatch(/toolgate_access_denied_total\{code="TOOL_NOT_FOUND"\} [1-9]/);
      const events = (await gw.api('GET', '/v1/audit/events?event=access_denied&limit=200')).body.data.items;
      expect(events.some((e: any) => e.actor.id === revoked.id)).toBe(false);
    });
  });
});
