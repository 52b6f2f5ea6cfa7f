import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHTTPClientTransportV2,
} from '@modelcontextprotocol/client';
import { loadMcpTools } from '@langchain/mcp-adapters';
import { Module } from '@nestjs/common';
import { makeConfigDir, startTestGateway, type TestGateway } from '@toolgate/testing';
import { always, defineToolContract, ToolkitModule } from '@toolgate/toolkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

/*
 * Toolgate's MCP server as third-party clients use it: the official TypeScript SDK's `Client`
 * exactly as agents drive it — connect, `listTools()` first (which arms its output-schema check),
 * then `callTool` — and LangChain's MCP adapters on top of it. Every tool here declares an
 * `outputSchema`, so every failure below is an `isError` result of a tool with an output schema:
 * the case that used to make the SDK throw -32602 instead of showing the failure (issue 21).
 */

const invoice = z.object({ number: z.string(), amount: z.number() });

const lookupInvoice = defineToolContract({
  name: 'mc_lookup_invoice',
  description: 'Looks an invoice up by number (MCP client test tool).',
  inputSchema: z.object({ number: z.string().min(1) }),
  outputSchema: invoice,
  risk: { level: 'L0' },
}).implement(({ number }) => ({ number, amount: 1200 }));

const failingInvoice = defineToolContract({
  name: 'mc_failing_invoice',
  description: 'Fails in its upstream (MCP client test tool).',
  inputSchema: z.object({}),
  outputSchema: invoice,
  risk: { level: 'L0' },
}).implement(() => {
  throw new Error('ledger answered 502');
});

const slowInvoice = defineToolContract({
  name: 'mc_slow_invoice',
  description: 'Outlives its time limit (MCP client test tool).',
  inputSchema: z.object({}),
  outputSchema: invoice,
  risk: { level: 'L0' },
  timeoutMs: 100,
}).implement(
  (_input, ctx) =>
    new Promise<z.output<typeof invoice>>((resolve) => {
      const timer = setTimeout(() => resolve({ number: 'late', amount: 0 }), 2_000);
      ctx.abortSignal.addEventListener('abort', () => clearTimeout(timer), { once: true });
    }),
);

const brokenInvoice = defineToolContract({
  name: 'mc_broken_invoice',
  description: 'Answers data its output schema refuses (MCP client test tool).',
  inputSchema: z.object({}),
  outputSchema: invoice,
  risk: { level: 'L0' },
}).implement(() => ({ number: 7 }) as never);

const limitedInvoice = defineToolContract({
  name: 'mc_limited_invoice',
  description: 'Limited to one MCP call a minute per key (MCP client test tool).',
  inputSchema: z.object({}),
  outputSchema: invoice,
  risk: { level: 'L0' },
}).implement(() => ({ number: 'L-1', amount: 1 }));

const voidInvoice = defineToolContract({
  name: 'mc_void_invoice',
  description: 'Voids an invoice; always asks a person first (MCP client test tool, L3).',
  inputSchema: z.object({ number: z.string().min(1), reason: z.string().min(1) }),
  outputSchema: z.object({ number: z.string(), voided: z.boolean() }),
  risk: { level: 'L3' },
  approval: { request: always() },
}).implement(({ number }) => ({ number, voided: true }));

@Module({
  imports: [
    ToolkitModule.forFeature(
      [lookupInvoice, failingInvoice, slowInvoice, brokenInvoice, limitedInvoice, voidInvoice],
      'McpClientTestTools',
    ),
  ],
})
class McpClientTestToolsModule {}

const BILLCO_YAML = `
id: billco
name: Bill Co
agentTypes:
  clerk:
    description: Looks after invoices (MCP client test agent).
    tools:
      - mc_lookup_invoice
      - mc_failing_invoice
      - mc_slow_invoice
      - mc_broken_invoice
      - mc_limited_invoice
      - mc_void_invoice
quotas:
  - scope: key
    tool: mc_limited_invoice
    face: mcp
    perMinute: 1
`;

type ToolError = {
  code: string;
  error: string;
  suggestedAction: string;
  callId?: string;
  approvalId?: string;
};

const textOf = (result: CallToolResult) => (result.content as { type: string; text: string }[])[0]!.text;
const errorOf = (result: CallToolResult) => result._meta?.['toolgate/error'] as ToolError | undefined;

describe('MCP as the official clients use it', () => {
  let gw: TestGateway;
  let key: string;
  let approver: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    gw = await startTestGateway({
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir({ billco: BILLCO_YAML }),
        TOOLGATE_PUBLIC_URL: 'https://toolgate.example.com/base',
        TOOLGATE_MCP_ALLOWED_ORIGINS: 'https://console.example.com, http://localhost:5173',
      },
      imports: [McpClientTestToolsModule],
    });
    key = await gw.createKey('agent', 'billco');
    approver = await gw.createKey('approver', 'billco');
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await gw?.close();
  });

  /** The SDK's client as an agent host sets it up: connected, tools listed before any call. */
  const listed = async (secret = key, locale = 'en') => {
    const client = new Client({ name: 'toolgate-client-e2e', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp/clerk`), {
      requestInit: { headers: { authorization: `Bearer ${secret}`, 'accept-language': locale } },
    });
    await client.connect(transport);
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'mc_lookup_invoice')?.outputSchema).toMatchObject({ type: 'object' });
    return client;
  };

  it('answers a success that the SDK checks against the output schema', async () => {
    const client = await listed();
    const result = (await client.callTool({
      name: 'mc_lookup_invoice',
      arguments: { number: 'F-7' },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ number: 'F-7', amount: 1200 });
  });

  it.each([
    ['INVALID_INPUT', 'mc_lookup_invoice', { number: 42 }],
    ['UPSTREAM_ERROR', 'mc_failing_invoice', {}],
    ['TIMEOUT', 'mc_slow_invoice', {}],
    ['OUTPUT_INVALID', 'mc_broken_invoice', {}],
  ])('shows %s of a tool with an output schema as a readable tool error', async (code, name, args) => {
    const client = await listed();
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.isError).toBe(true);
    // Nothing for the SDK to hold against the output schema: the failure is not the tool's output.
    expect(result.structuredContent).toBeUndefined();
    const envelope = errorOf(result)!;
    expect(envelope).toMatchObject({ code, callId: expect.any(String) });
    expect(result._meta?.['toolgate/callId']).toBe(envelope.callId);
    // A model that only reads text (LangChain's adapters) sees the code, what to do and the call id.
    const text = textOf(result);
    expect(text.startsWith(`${code}: ${envelope.error}`)).toBe(true);
    expect(text).toContain(envelope.suggestedAction);
    expect(text).toContain(`callId: ${envelope.callId}`);
  });

  it('shows RATE_LIMITED with the wait in seconds rather than a Retry-After header MCP has not got', async () => {
    const client = await listed();
    const first = (await client.callTool({ name: 'mc_limited_invoice', arguments: {} })) as CallToolResult;
    expect(first.isError).toBeFalsy();
    const second = (await client.callTool({ name: 'mc_limited_invoice', arguments: {} })) as CallToolResult;
    expect(second.isError).toBe(true);
    expect(second.structuredContent).toBeUndefined();
    expect(errorOf(second)).toMatchObject({ code: 'RATE_LIMITED' });
    expect(textOf(second)).toMatch(/^RATE_LIMITED: .*\nWait \d+ s before calling again/s);
    expect(textOf(second)).not.toContain('Retry-After');
  });

  it('shows APPROVAL_PENDING with the call id and what an MCP client can do, in both languages', async () => {
    const client = await listed();
    const parked = (await client.callTool({
      name: 'mc_void_invoice',
      arguments: { number: 'F-1', reason: 'duplicate' },
    })) as CallToolResult;
    expect(parked.isError).toBe(true);
    expect(parked.structuredContent).toBeUndefined();
    const envelope = errorOf(parked)!;
    expect(envelope).toMatchObject({
      code: 'APPROVAL_PENDING',
      callId: expect.any(String),
      approvalId: expect.any(String),
    });
    const text = textOf(parked);
    expect(text).toContain(`toolgate_call_status {"callId":"${envelope.callId}"}`);
    expect(text).toContain(`approvalId: ${envelope.approvalId}`);
    // Never a REST route the model cannot call.
    expect(text).not.toContain('/v1/');
    expect(envelope.suggestedAction).not.toContain('/v1/');

    const zh = await listed(key, 'zh-CN');
    const parkedZh = (await zh.callTool({
      name: 'mc_void_invoice',
      arguments: { number: 'F-2', reason: 'duplicate' },
    })) as CallToolResult;
    const zhText = textOf(parkedZh);
    expect(zhText).toMatch(/^APPROVAL_PENDING: 该调用需要人工审批/);
    expect(zhText).toContain('toolgate_call_status');
    expect(zhText).not.toContain('/v1/');

    // What the status tool then answers, once a person approved.
    const approved = await gw.api('POST', `/v1/approvals/${envelope.approvalId}/approve`, {
      key: approver,
      body: {},
    });
    expect(approved.status).toBe(200);
    const done = (await client.callTool({
      name: 'toolgate_call_status',
      arguments: { callId: envelope.callId },
    })) as CallToolResult;
    expect(done.isError).toBeFalsy();
    expect(done.structuredContent).toMatchObject({ status: 'succeeded' });
  });

  it('refuses an unknown tool with one readable message, without the SDK prefix inside it', async () => {
    const client = await listed();
    const err = await client.callTool({ name: 'mc_no_such_tool', arguments: {} }).then(
      () => undefined,
      (e: Error & { code?: number }) => e,
    );
    expect(err).toMatchObject({ code: -32602 });
    // The client adds "MCP error -32602: " itself; the server's message must not carry it again.
    expect(err!.message.match(/MCP error/g)).toHaveLength(1);
    expect(err!.message).toContain('Unknown tool: mc_no_such_tool');
    const raw = await gw.api('POST', '/mcp/clerk', {
      key,
      body: {
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'mc_no_such_tool', arguments: {} },
      },
      headers: { accept: 'application/json, text/event-stream', 'accept-language': 'zh-CN' },
    });
    expect(raw.body.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^未知工具：mc_no_such_tool/),
    });
  });

  it('lets a LangChain agent read APPROVAL_PENDING and its call id, and a retry parks no second approval', async () => {
    const client = await listed();
    const tools = await loadMcpTools('toolgate', client as never);
    const voidTool = tools.find((t) => t.name === 'mc_void_invoice')!;
    const args = { number: 'F-9', reason: 'sent twice' };
    const failure = await voidTool.invoke(args).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(failure?.name).toBe('ToolException');
    expect(failure!.message).toContain('APPROVAL_PENDING');
    const callId = /callId: ([\w-]+)/.exec(failure!.message)?.[1];
    expect(callId).toEqual(expect.any(String));
    expect(failure!.message).toContain(`toolgate_call_status {"callId":"${callId}"}`);

    // The agent retries, as LangChain runs do after a failure: the same parked call answers.
    const again = await voidTool.invoke(args).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(again!.message).toContain(`callId: ${callId}`);
    const pending = await gw.api('GET', '/v1/approvals?status=pending', { key: approver });
    expect(pending.status).toBe(200);
    const forThisCall = (pending.body.data as { tool: string; input: { number?: string } }[]).filter(
      (a) => a.tool === 'mc_void_invoice' && a.input?.number === 'F-9',
    );
    expect(forThisCall).toHaveLength(1);

    // And the status tool, loaded the same way, answers the parked call.
    const status = tools.find((t) => t.name === 'toolgate_call_status')!;
    const content: unknown = await status.invoke({ callId });
    expect(JSON.stringify(content)).toContain('pending_approval');
  });

  describe('Origin (DNS rebinding, MCP transport spec 2025-11-25)', () => {
    const post = (headers: Record<string, string>, secret: string | null = key, rawBody?: string) =>
      gw.api('POST', '/mcp/clerk', {
        key: secret,
        ...(rawBody === undefined ? { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } } : { rawBody }),
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          ...headers,
        },
      });

    it('answers 403 FORBIDDEN to a page of another origin, before the key or the body is looked at', async () => {
      const evil = await post({ origin: 'http://evil.example.com' });
      expect(evil.status).toBe(403);
      expect(evil.body).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          data: { code: 'FORBIDDEN', error: expect.any(String), suggestedAction: expect.any(String) },
        },
      });
      // A rebound host name: the page's Host and Origin both say evil.example.com.
      expect((await post({ origin: 'http://evil.example.com', host: 'evil.example.com' })).status).toBe(403);
      expect((await post({ origin: 'http://evil.example.com' }, null)).status).toBe(403);
      expect((await post({ origin: 'http://evil.example.com' }, key, '{"jsonrpc":')).status).toBe(403);
      expect((await post({ origin: 'null' })).status).toBe(403);
      expect((await post({ origin: 'https://console.example.com.evil.example.com' })).status).toBe(403);
      const get = await gw.api('GET', '/mcp/clerk', { key, headers: { origin: 'http://evil.example.com' } });
      expect(get.status).toBe(403);
      const zh = await post({ origin: 'http://evil.example.com', 'accept-language': 'zh-CN' });
      expect(zh.body.error.data.error).toMatch(/DNS 重绑定/);
    });

    it('lets the gateway’s own origin, the configured ones and requests without Origin through', async () => {
      for (const origin of [
        'https://toolgate.example.com',
        'https://console.example.com',
        'http://localhost:5173',
      ]) {
        const res = await post({ origin });
        expect(res.status, origin).toBe(200);
        expect(res.body.result.tools.length).toBeGreaterThan(0);
      }
      expect((await post({})).status).toBe(200);
    });
  });

  describe('protocol revisions: 2026-07-28 (no handshake), 2025-11-25 and 2025-06-18', () => {
    /** The SDK 2.x client, which opens with the `server/discover` probe (mode auto) or pins a revision. */
    const connectV2 = async (mode: 'auto' | 'legacy' | { pin: string }) => {
      const client = new ClientV2(
        { name: 'toolgate-v2-e2e', version: '2.0.0' },
        { versionNegotiation: { mode } },
      );
      const transport = new StreamableHTTPClientTransportV2(new URL(`${gw.url}/mcp/clerk`), {
        requestInit: { headers: { authorization: `Bearer ${key}`, 'accept-language': 'en' } },
      });
      await client.connect(transport);
      v2clients.push(client);
      return client;
    };
    const v2clients: ClientV2[] = [];
    afterAll(async () => {
      await Promise.all(v2clients.map((c) => c.close().catch(() => undefined)));
    });

    it('speaks 2026-07-28 to the SDK 2.x client that probes with server/discover, and it calls as before', async () => {
      for (const mode of ['auto', { pin: '2026-07-28' }] as const) {
        const client = await connectV2(mode);
        expect(client.getProtocolEra()).toBe('modern');
        expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
        expect(client.getInstructions()).toBe('Looks after invoices (MCP client test agent).');
        expect(client.getDiscoverResult()?.supportedVersions).toEqual(
          expect.arrayContaining(['2026-07-28', '2025-11-25', '2025-06-18']),
        );
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toContain('mc_lookup_invoice');
        const ok = await client.callTool({ name: 'mc_lookup_invoice', arguments: { number: 'M-1' } });
        expect(ok).toMatchObject({ structuredContent: { number: 'M-1', amount: 1200 } });
        const failed = await client.callTool({ name: 'mc_failing_invoice', arguments: {} });
        expect(failed).toMatchObject({
          isError: true,
          _meta: { 'toolgate/error': { code: 'UPSTREAM_ERROR' } },
        });
        const parked = await client.callTool({
          name: 'mc_void_invoice',
          arguments: { number: `M-${JSON.stringify(mode)}`, reason: 'modern client' },
        });
        expect(parked).toMatchObject({
          isError: true,
          _meta: { 'toolgate/error': { code: 'APPROVAL_PENDING' } },
        });
      }
    });

    it('keeps 2025-11-25 for clients that do not probe', async () => {
      const client = await connectV2('legacy');
      expect(client.getProtocolEra()).toBe('legacy');
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      const ok = await client.callTool({ name: 'mc_lookup_invoice', arguments: { number: 'L-1' } });
      expect(ok).toMatchObject({ structuredContent: { number: 'L-1', amount: 1200 } });
    });

    /** One POST of the wire, as a client without an SDK sends it. */
    const wire = (body: unknown, headers: Record<string, string>) =>
      gw.api('POST', '/mcp/clerk', {
        key,
        body,
        headers: { accept: 'application/json, text/event-stream', ...headers },
      });
    const MODERN = 'mcp-protocol-version';
    const meta = (version = '2026-07-28') => ({
      'io.modelcontextprotocol/protocolVersion': version,
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'curl', version: '1' },
    });

    it('answers the 2026-07-28 wire: discover, results with resultType, cache hints and the server identity', async () => {
      const discover = await wire(
        { jsonrpc: '2.0', id: 'd', method: 'server/discover', params: { _meta: meta() } },
        { [MODERN]: '2026-07-28', 'mcp-method': 'server/discover' },
      );
      expect(discover.status).toBe(200);
      expect(discover.body.result).toMatchObject({
        resultType: 'complete',
        supportedVersions: expect.arrayContaining(['2026-07-28', '2025-11-25', '2025-06-18']),
        capabilities: { tools: {} },
        ttlMs: 0,
        cacheScope: 'private',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'toolgate' } },
      });
      expect(discover.body.result.capabilities).not.toHaveProperty('tasks');
      const list = await wire(
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } },
        { [MODERN]: '2026-07-28', 'mcp-method': 'tools/list' },
      );
      expect(list.body.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
      expect(list.body.result.tools[0]).not.toHaveProperty('execution');
      const name = '=?base64?' + Buffer.from('mc_lookup_invoice').toString('base64') + '?=';
      const call = await wire(
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'mc_lookup_invoice', arguments: { number: 'W-1' }, _meta: meta() },
        },
        { [MODERN]: '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
      );
      expect(call.body.result).toMatchObject({
        resultType: 'complete',
        structuredContent: { number: 'W-1' },
        _meta: {
          'io.modelcontextprotocol/serverInfo': { name: 'toolgate' },
          'toolgate/callId': expect.any(String),
        },
      });
    });

    it('refuses what the 2026-07-28 transport refuses, with its codes and statuses', async () => {
      const call = (params: Record<string, unknown>, headers: Record<string, string>) =>
        wire({ jsonrpc: '2.0', id: 7, method: 'tools/call', params }, { [MODERN]: '2026-07-28', ...headers });
      const args = { name: 'mc_lookup_invoice', arguments: { number: 'X' } };
      const noName = await call({ ...args, _meta: meta() }, { 'mcp-method': 'tools/call' });
      expect(noName.status).toBe(400);
      expect(noName.body).toMatchObject({ id: 7, error: { code: -32020 } });
      const otherName = await call(
        { ...args, _meta: meta() },
        { 'mcp-method': 'tools/call', 'mcp-name': 'mc_failing_invoice' },
      );
      expect(otherName.body.error.code).toBe(-32020);
      const otherMethod = await call(
        { ...args, _meta: meta() },
        { 'mcp-method': 'tools/list', 'mcp-name': args.name },
      );
      expect(otherMethod.body.error.code).toBe(-32020);
      const otherVersion = await call(
        { ...args, _meta: meta('2025-11-25') },
        { 'mcp-method': 'tools/call', 'mcp-name': args.name },
      );
      expect(otherVersion).toMatchObject({ status: 400, body: { error: { code: -32020 } } });
      const noMeta = await call(args, { 'mcp-method': 'tools/call', 'mcp-name': args.name });
      expect(noMeta).toMatchObject({ status: 400, body: { error: { code: -32602 } } });
      for (const method of ['ping', 'initialize', 'tasks/list', 'resources/list']) {
        const removed = await wire(
          { jsonrpc: '2.0', id: 8, method, params: { _meta: meta() } },
          { [MODERN]: '2026-07-28', 'mcp-method': method },
        );
        expect(removed.status, method).toBe(404);
        expect(removed.body.error.code, method).toBe(-32601);
      }
      const unknown = await wire(
        { jsonrpc: '2.0', id: 9, method: 'server/discover', params: { _meta: meta('2099-01-01') } },
        { [MODERN]: '2099-01-01', 'mcp-method': 'server/discover' },
      );
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toMatchObject({
        code: -32022,
        data: { supported: expect.arrayContaining(['2026-07-28', '2025-11-25']), requested: '2099-01-01' },
      });
    });

    it('keeps 2025-06-18: the handshake, then calls with the version header and no _meta', async () => {
      const init = await wire(
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'old', version: '1' },
          },
        },
        {},
      );
      expect(init.body.result).toMatchObject({
        protocolVersion: '2025-06-18',
        serverInfo: { name: 'toolgate' },
      });
      const call = await wire(
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'mc_lookup_invoice', arguments: { number: 'O-1' } },
        },
        { [MODERN]: '2025-06-18' },
      );
      expect(call.body.result).toMatchObject({ structuredContent: { number: 'O-1' } });
      expect(call.body.result).not.toHaveProperty('resultType');
      const ping = await wire({ jsonrpc: '2.0', id: 3, method: 'ping' }, { [MODERN]: '2025-06-18' });
      expect(ping.body).toMatchObject({ id: 3, result: {} });
    });
  });
});
