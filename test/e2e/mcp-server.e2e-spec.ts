import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Module } from '@nestjs/common';
import { makeConfigDir, startTestGateway, waitFor, type TestGateway } from '@toolgate/testing';
import { defineToolContract, ToolkitModule } from '@toolgate/toolkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { abortProbe, TestToolsModule } from './test-tools.js';

/** A tool with a fixed label (its title), an object output schema and a model projection. */
const lookupInvoice = defineToolContract({
  name: 'lookup_invoice',
  description: 'Looks an invoice up by number (MCP test tool).',
  inputSchema: z.object({ number: z.string().min(1) }),
  outputSchema: z.object({ number: z.string(), amount: z.number() }),
  risk: { level: 'L0' },
  label: { start: 'Invoice lookup' },
  toModelOutput: (o: { number: string; amount: number }) => ({
    type: 'text',
    value: `Invoice ${o.number}: ${o.amount}`,
  }),
}).implement(({ number }) => ({ number, amount: 1200 }));

/** A deferred tool: hidden from tools/list, reached through tool_search / tool_call. */
const archiveSearch = defineToolContract({
  name: 'archive_search',
  description: 'Searches the old ledger archive (MCP test tool).',
  inputSchema: z.object({ term: z.string() }),
  risk: { level: 'L2' },
  deferred: true,
}).implement(({ term }) => ({ hits: [term] }));

@Module({ imports: [ToolkitModule.forFeature([lookupInvoice, archiveSearch], 'McpTestTools')] })
class McpTestToolsModule {}

/** A tenant of the test's own: one agent type with a spread of test tools, one narrow. */
const MCPCO_YAML = `
id: mcpco
name: MCP Co
agentTypes:
  helper:
    description: Helps with reports and notes (MCP test agent).
    tools:
      - noop
      - build_report
      - record_note
      - slow_note
      - await_abort
      - lookup_invoice
  archivist:
    description: Reads the archive.
    tools:
      - noop
      - archive_search
  narrow:
    description: Only the no-op.
    tools:
      - noop
`;

const RESTART = { service: 'payment-api', reason: '滚动发布后内存泄漏，需要重启' };

describe('Toolgate as an MCP server', () => {
  let gw: TestGateway;
  let key: string;
  let acmeAgent: string;
  let acmeApprover: string;
  let narrowKey: string;
  let globexKey: string;
  let auditor: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    gw = await startTestGateway({
      env: { TOOLGATE_CONFIG_DIR: makeConfigDir({ mcpco: MCPCO_YAML }) },
      imports: [TestToolsModule, McpTestToolsModule],
    });
    key = await gw.createKey('agent', 'mcpco');
    narrowKey = await gw.createKey('agent', 'mcpco', { agentTypes: ['narrow'] });
    acmeAgent = await gw.createKey('agent', 'acme');
    acmeApprover = await gw.createKey('approver', 'acme');
    globexKey = await gw.createKey('agent', 'globex');
    auditor = await gw.createKey('auditor', 'mcpco');
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await gw?.close();
  });

  /** The SDK's own client over Streamable HTTP, connected (initialize + initialized). */
  const connect = async (agentType: string, secret = key, headers: Record<string, string> = {}) => {
    const client = new Client({ name: 'toolgate-e2e', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp/${agentType}`), {
      requestInit: { headers: { authorization: `Bearer ${secret}`, ...headers } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  };

  it('initializes with the agent type description and lists the bound tools in binding order', async () => {
    const client = await connect('helper');
    expect(client.getServerVersion()).toMatchObject({ name: 'toolgate' });
    expect(client.getInstructions()).toBe('Helps with reports and notes (MCP test agent).');
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'noop',
      'build_report',
      'record_note',
      'slow_note',
      'await_abort',
      'lookup_invoice',
      'toolgate_call_status',
    ]);
    const invoice = tools[5]!;
    expect(invoice).toMatchObject({
      title: 'Invoice lookup',
      outputSchema: { type: 'object', properties: { number: { type: 'string' } } },
    });
    const noop = tools[0]!;
    expect(noop).toMatchObject({
      title: 'Noop',
      description: 'Does nothing and answers ok (test tool).',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    });
    const report = tools[1]!;
    expect(report.inputSchema.properties).toHaveProperty('project');
    expect(tools[2]!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });

  it('calls a tool through the governed pipeline: structuredContent is the data', async () => {
    const client = await connect('helper');
    const result = await client.callTool({ name: 'record_note', arguments: { note: 'hello' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ stored: 5 });
    expect(result.content).toEqual([{ type: 'text', text: '{"stored":5}' }]);
    const callId = result._meta?.['toolgate/callId'] as string;
    expect(callId).toEqual(expect.any(String));
    // The audit trail and the metrics say the call came through MCP.
    const story = await gw.api('GET', `/v1/audit/calls/${callId}`, { key: auditor });
    expect(story.status).toBe(200);
    const events = story.body.data.events as { event: string; details?: { face?: string } }[];
    expect(events.map((e) => e.event)).toEqual(['started', 'finished']);
    expect(events.every((e) => e.details?.face === 'mcp')).toBe(true);
    const metrics = await gw.api('GET', '/metrics');
    expect(metrics.text).toContain('toolgate_tool_calls_total{tool="record_note",code="OK",face="mcp"} 1');
  });

  it('answers the model projection as text and the full data as structuredContent', async () => {
    const client = await connect('helper');
    const result = await client.callTool({ name: 'lookup_invoice', arguments: { number: 'F-7' } });
    expect(result.structuredContent).toEqual({ number: 'F-7', amount: 1200 });
    expect(result.content).toEqual([{ type: 'text', text: 'Invoice F-7: 1200' }]);
  });

  it('hides deferred tools behind tool_search / tool_call, which reach them through the same pipeline', async () => {
    const client = await connect('archivist');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['noop', 'tool_search', 'tool_call', 'toolgate_call_status']);
    const found = await client.callTool({ name: 'tool_search', arguments: { query: 'ledger archive' } });
    expect(found.structuredContent).toMatchObject({ result: [{ name: 'archive_search' }] });
    // Not listed, so not callable by name: what tools/list shows and tools/call accepts agree.
    await expect(client.callTool({ name: 'archive_search', arguments: { term: 'x' } })).rejects.toMatchObject(
      {
        code: -32602,
      },
    );
    const called = await client.callTool({
      name: 'tool_call',
      arguments: { name: 'archive_search', input: { term: '2019' } },
    });
    expect(called.structuredContent).toEqual({ hits: ['2019'] });
    await expect(
      client.callTool({ name: 'tool_call', arguments: { name: 'restart_service', input: {} } }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it('answers invalid input as a readable tool error, so the model can correct itself', async () => {
    const client = await connect('helper');
    const result = await client.callTool({ name: 'record_note', arguments: { note: 42 } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result._meta?.['toolgate/error']).toMatchObject({ code: 'INVALID_INPUT' });
    expect((result.content as { text: string }[])[0]!.text).toMatch(/^INVALID_INPUT: .*note/s);
  });

  it('refuses a tool that is not listed with a JSON-RPC error', async () => {
    const client = await connect('narrow', narrowKey);
    await expect(client.callTool({ name: 'record_note', arguments: { note: 'x' } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown tool: record_note'),
    });
    const listed = (await client.listTools()).tools.map((t) => t.name);
    expect(listed).toEqual(['noop', 'toolgate_call_status']);
  });

  it('answers a timeout as an isError TIMEOUT envelope', async () => {
    const client = await connect('helper');
    const result = await client.callTool({ name: 'slow_note', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result._meta?.['toolgate/error']).toMatchObject({ code: 'TIMEOUT' });
  });

  it('fires the tool’s AbortSignal when the client cancels the request', async () => {
    const client = await connect('helper');
    const before = abortProbe.awaitAbortAborted;
    // Counters, not flags: the e2e projects share test-tools.ts between the files of a worker.
    const started = abortProbe.awaitAbortStarted;
    const controller = new AbortController();
    const pending = client.callTool({ name: 'await_abort', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await waitFor(() => abortProbe.awaitAbortStarted > started);
    controller.abort('changed my mind');
    await expect(pending).rejects.toThrow();
    await waitFor(() => abortProbe.awaitAbortAborted > before);
  });

  it('sends progress notifications from a generator tool when the client gave a progress token', async () => {
    const client = await connect('helper');
    const notes: { progress: number; message?: string }[] = [];
    const result = await client.callTool(
      { name: 'build_report', arguments: { project: 'apollo' } },
      undefined,
      {
        onprogress: (p) => notes.push(p),
      },
    );
    expect(result.structuredContent).toMatchObject({ project: 'apollo', phase: '完成' });
    expect(notes).toEqual([
      { progress: 1, message: '收集资料' },
      { progress: 2, message: '完成' },
    ]);
  });

  it('parks an L3 call without tasks as APPROVAL_PENDING; toolgate_call_status shows the result once approved', async () => {
    const client = await connect('ops_assistant', acmeAgent);
    const parked = await client.callTool({ name: 'restart_service', arguments: RESTART });
    expect(parked.isError).toBe(true);
    const envelope = parked._meta?.['toolgate/error'] as { code: string; callId: string; approvalId: string };
    expect(envelope).toMatchObject({
      code: 'APPROVAL_PENDING',
      callId: expect.any(String),
      approvalId: expect.any(String),
    });
    const text = (parked.content as { text: string }[])[0]!.text;
    expect(text).toContain(`toolgate_call_status {"callId":"${envelope.callId}"}`);
    const waiting = await client.callTool({
      name: 'toolgate_call_status',
      arguments: { callId: envelope.callId },
    });
    expect(waiting.structuredContent).toMatchObject({ status: 'pending_approval' });

    const approved = await gw.api('POST', `/v1/approvals/${envelope.approvalId}/approve`, {
      key: acmeApprover,
      body: {},
    });
    expect(approved.status).toBe(200);
    const done = await client.callTool({
      name: 'toolgate_call_status',
      arguments: { callId: envelope.callId },
    });
    expect(done.isError).toBeFalsy();
    expect(done.structuredContent).toMatchObject({ status: 'succeeded' });
  });

  it('refuses another tenant’s key and a key limited to another agent type (404, no leak)', async () => {
    const notFound = { code: 404, message: expect.stringContaining('NOT_FOUND') };
    await expect(connect('helper', globexKey)).rejects.toMatchObject(notFound);
    await expect(connect('helper', narrowKey)).rejects.toMatchObject(notFound);
    // The same answer as for an agent type nobody has: existence does not leak.
    await expect(connect('no_such_agent', key)).rejects.toMatchObject(notFound);
    await expect(connect('helper', 'tg_not-a-key-at-all-0123456789')).rejects.toMatchObject({ code: 401 });
    const res = await gw.api('POST', '/mcp/helper', {
      key: null,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number) } });
  });

  /** One raw POST, as a client without the SDK would send it. */
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    gw.api('POST', '/mcp/helper', {
      key,
      body,
      headers: { accept: 'application/json, text/event-stream', ...headers },
    });

  it('speaks the wire directly: 202 for notifications, -32602 for bad params, batches only where the version has them', async () => {
    const initialized = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(initialized.status).toBe(202);
    expect(initialized.text).toBe('');
    const noName = await post({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { arguments: {} } });
    expect(noName.status).toBe(200);
    expect(noName.body).toMatchObject({ jsonrpc: '2.0', id: 'a', error: { code: -32602 } });
    const unknownMethod = await post({ jsonrpc: '2.0', id: 2, method: 'resources/list' });
    expect(unknownMethod.body).toMatchObject({ id: 2, error: { code: -32601 } });
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'noop', arguments: {} } },
    ];
    const old = await post(batch, { 'mcp-protocol-version': '2025-03-26' });
    expect(old.status).toBe(200);
    expect(old.body).toEqual([
      expect.objectContaining({ id: 1, result: {} }),
      expect.objectContaining({
        id: 2,
        result: expect.objectContaining({ structuredContent: { ok: true } }),
      }),
    ]);
    const current = await post(batch, { 'mcp-protocol-version': '2025-11-25' });
    expect(current.status).toBe(400);
    expect(current.body).toMatchObject({ error: { code: -32600 } });
    const unknownVersion = await post(batch[0], { 'mcp-protocol-version': '1999-01-01' });
    expect(unknownVersion.status).toBe(400);
    // A well-formed traceparent in _meta or the header is taken; a malformed one is ignored, never an error.
    const traced = await post(
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'noop', arguments: {}, _meta: { traceparent: 'x' } },
      },
      { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
    );
    expect(traced.body).toMatchObject({ id: 3, result: { structuredContent: { ok: true } } });
  });

  it('stops an L0 call whose HTTP client went away', async () => {
    const before = abortProbe.awaitAbortAborted;
    const started = abortProbe.awaitAbortStarted;
    const controller = new AbortController();
    const request = fetch(`${gw.url}/mcp/helper`, {
      method: 'POST',
      signal: controller.signal,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'await_abort', arguments: {} },
      }),
    });
    await waitFor(() => abortProbe.awaitAbortStarted > started);
    controller.abort();
    await expect(request).rejects.toThrow();
    await waitFor(() => abortProbe.awaitAbortAborted > before);
  });

  it('answers malformed JSON and non-JSON-RPC bodies with a 400 JSON-RPC error, never a stack trace', async () => {
    const bad = await gw.api('POST', '/mcp/helper', {
      key,
      rawBody: '{"jsonrpc":"2.0", "id": 1, "method": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    const notRpc = await gw.api('POST', '/mcp/helper', { key, body: { hello: 'world' } });
    expect(notRpc.status).toBe(400);
    expect(notRpc.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    expect(notRpc.text).not.toMatch(/at .*\.ts:\d+/);
    const get = await gw.api('GET', '/mcp/helper', { key });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    // A body Fastify cannot parse on a refused method is still the 405 (found by the API fuzz).
    const deleteWithText = await gw.api('DELETE', '/mcp/helper', {
      key,
      rawBody: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(deleteWithText.status).toBe(405);
    expect(deleteWithText.body).toMatchObject({
      jsonrpc: '2.0',
      error: { data: { code: 'INVALID_INPUT', suggestedAction: expect.any(String) } },
    });
  });
});
