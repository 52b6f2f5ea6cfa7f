import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  questionOf,
  startFakeOpenAI,
  startTestGateway,
  toolResultsOf,
  waitFor,
  type FakeChatRequest,
  type FakeOpenAI,
  type FakeReply,
  type TestGateway,
} from '@toolgate/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { installTracing, type Tracing } from '../../apps/gateway/src/telemetry/tracing.js';

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const CALLER = `00-${CALLER_TRACE}-${CALLER_SPAN}-01`;

const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;
const idOf = (s: ReadableSpan) => s.spanContext().spanId;
const traceOf = (s: ReadableSpan) => s.spanContext().traceId;

/**
 * Spans with the SDK's in-memory exporter, in a gateway in this process: the tree and attributes of
 * a REST call, of a call parked then approved, and of an agent run (ADR 019).
 */
describe('traces across every hop (in-memory exporter)', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let fake: FakeOpenAI;
  let gw: TestGateway;
  let agent: string;
  let approver: string;
  const scripts = new Map<string, (body: FakeChatRequest) => FakeReply>();

  const spans = () => exporter.getFinishedSpans();
  const named = (name: string, trace?: string) =>
    spans().filter((s) => s.name === name && (!trace || traceOf(s) === trace));
  const invoke = (tool: string, input: unknown, headers: Record<string, string> = {}) =>
    gw.api('POST', `/v1/agents/ops_assistant/tools/${tool}/invoke`, { key: agent, body: { input }, headers });

  beforeAll(async () => {
    tracing = installTracing([new SimpleSpanProcessor(exporter)]);
    fake = await startFakeOpenAI((body) => scripts.get(questionOf(body))?.(body) ?? { text: 'ok' });
    gw = await startTestGateway({
      env: {
        TOOLGATE_MODEL_BASE_URL: fake.url,
        TOOLGATE_MODEL_API_KEY: 'sk-test-secret',
        TOOLGATE_MODEL: 'default/test-model',
      },
    });
    agent = await gw.createKey('agent', 'acme');
    approver = await gw.createKey('approver', 'acme');
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
    await tracing?.shutdown();
  });
  beforeEach(() => exporter.reset());

  it('continues the caller’s trace through the REST invoke, the governed call, the audit write and the upstream hop', async () => {
    const res = await invoke('read_logs', { service: 'payment-api', limit: 3 }, { traceparent: CALLER });
    expect(res.status).toBe(200);
    await waitFor(() => named('toolgate.invoke', CALLER_TRACE).length === 1);
    const [inbound] = named('toolgate.invoke', CALLER_TRACE);
    expect(parentOf(inbound!)).toBe(CALLER_SPAN);
    expect(inbound!.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/v1/agents/:agentType/tools/:toolName/invoke',
      'http.response.status_code': 200,
    });
    const [call] = named('toolgate.call', CALLER_TRACE);
    expect(parentOf(call!)).toBe(idOf(inbound!));
    expect(call!.attributes).toMatchObject({
      'toolgate.tenant': 'acme',
      'toolgate.agent_type': 'ops_assistant',
      'toolgate.tool': 'read_logs',
      'toolgate.implementation': expect.any(String),
      'toolgate.risk_level': 'L1',
      'toolgate.face': 'rest',
      'toolgate.outcome': 'OK',
      'toolgate.approval': 'none',
      'toolgate.call_id': res.headers.get('x-call-id'),
      'toolgate.duration_ms': expect.any(Number),
    });
    const audits = named('toolgate.audit.write', CALLER_TRACE);
    expect(audits.map((s) => s.attributes['toolgate.audit.events'])).toEqual([['started'], ['finished']]);
    expect(audits.every((s) => parentOf(s) === idOf(call!))).toBe(true);
    const upstream = spans().filter((s) => s.attributes['toolgate.upstream'] === 'ops_api');
    expect(upstream).toHaveLength(1);
    expect(parentOf(upstream[0]!)).toBe(idOf(call!));
    expect(upstream[0]!.attributes['http.response.status_code']).toBe(200);

    // Never an input value in a span.
    const everything = JSON.stringify(spans().map((s) => [s.name, s.attributes]));
    expect(everything).not.toContain('payment-api');

    // The audit events carry the trace id: compliance jumps from an event to its trace.
    const events = (await gw.api('GET', `/v1/audit/calls/${res.headers.get('x-call-id')}`)).body.data.events;
    expect(events.map((e: any) => [e.event, e.details?.traceId])).toEqual([
      ['started', CALLER_TRACE],
      ['finished', CALLER_TRACE],
    ]);
  });

  it('starts a new trace without a (well-formed) traceparent', async () => {
    const res = await invoke('get_service_status', { service: 'payment-api' }, { traceparent: 'garbage' });
    expect(res.status).toBe(200);
    await waitFor(() => named('toolgate.invoke').length === 1);
    const [inbound] = named('toolgate.invoke');
    expect(parentOf(inbound!)).toBeUndefined();
    expect(traceOf(inbound!)).not.toBe(CALLER_TRACE);
    expect(named('toolgate.call', traceOf(inbound!))[0]!.attributes['toolgate.risk_level']).toBe('L0');
  });

  it('continues an MCP caller’s trace: the header for the request, `_meta.traceparent` for its tools/call', async () => {
    const META_TRACE = 'aaf7651916cd43dd8448eb211c80319c';
    const META = `00-${META_TRACE}-b7ad6b7169203331-01`;
    const res = await gw.api('POST', '/mcp/ops_assistant', {
      key: agent,
      headers: { accept: 'application/json, text/event-stream', traceparent: CALLER },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'get_service_status',
          arguments: { service: 'payment-api' },
          _meta: { traceparent: META },
        },
      },
    });
    expect(res.status).toBe(200);
    await waitFor(() => named('toolgate.mcp', CALLER_TRACE).length === 1);
    const [inbound] = named('toolgate.mcp', CALLER_TRACE);
    expect(parentOf(inbound!)).toBe(CALLER_SPAN);
    const [call] = named('toolgate.call', META_TRACE);
    expect(parentOf(call!)).toBe('b7ad6b7169203331');
    expect(call!.attributes).toMatchObject({ 'toolgate.face': 'mcp', 'toolgate.outcome': 'OK' });
    // The request's span is linked, so the two traces lead to each other.
    expect(call!.links.map((l) => l.context.spanId)).toEqual([idOf(inbound!)]);
  });

  it('parks a call and resumes it, once approved, in the trace it was parked in', async () => {
    const parked = await invoke(
      'restart_service',
      { service: 'payment-api', reason: '追踪测试：重启支付服务' },
      { traceparent: CALLER },
    );
    expect(parked.status).toBe(202);
    await waitFor(() => named('toolgate.call', CALLER_TRACE).length === 1);
    const [parkedCall] = named('toolgate.call', CALLER_TRACE);
    expect(parkedCall!.attributes).toMatchObject({
      'toolgate.outcome': 'APPROVAL_PENDING',
      'toolgate.approval': 'pending',
      'toolgate.risk_level': 'L3',
    });

    const approved = await gw.api('POST', `/v1/approvals/${parked.body.approvalId}/approve`, {
      key: approver,
      body: {},
    });
    expect(approved.body.data.call.status).toBe('succeeded');
    await waitFor(() => named('toolgate.call', CALLER_TRACE).length === 2);
    const [wait] = named('toolgate.approval.wait', CALLER_TRACE);
    expect(parentOf(wait!)).toBe(idOf(parkedCall!));
    expect(wait!.attributes).toMatchObject({
      'toolgate.approval_id': parked.body.approvalId,
      'toolgate.call_id': parked.body.callId,
    });
    const resumed = named('toolgate.call', CALLER_TRACE).find((s) => s !== parkedCall)!;
    expect(parentOf(resumed)).toBe(idOf(parkedCall!));
    expect(resumed.attributes).toMatchObject({ 'toolgate.approval': 'approved', 'toolgate.outcome': 'OK' });
    const upstream = spans().filter(
      (s) => s.attributes['toolgate.upstream'] === 'ops_api' && traceOf(s) === CALLER_TRACE,
    );
    expect(upstream.map(parentOf)).toEqual([idOf(resumed)]);
    expect(named('toolgate.audit.write', CALLER_TRACE).map((s) => parentOf(s))).toEqual([
      idOf(resumed),
      idOf(resumed),
    ]);
  });

  it('traces a run as run → step → model call and tool calls', async () => {
    scripts.set('支付服务怎么样？', (body) =>
      toolResultsOf(body).length
        ? { text: '正常' }
        : { toolCalls: [{ id: 'a', name: 'get_service_status', arguments: '{"service":"payment-api"}' }] },
    );
    const res = await gw.api('POST', '/v1/agents/ops_assistant/runs', {
      key: agent,
      body: { input: '支付服务怎么样？' },
      headers: { traceparent: CALLER },
    });
    expect(res.body.data.status).toBe('completed');
    await waitFor(() => named('toolgate.run').length === 1);
    const [run] = named('toolgate.run');
    expect(traceOf(run!)).toBe(CALLER_TRACE);
    expect(parentOf(run!)).toBe(CALLER_SPAN);
    expect(run!.attributes).toMatchObject({
      'toolgate.tenant': 'acme',
      'toolgate.agent_type': 'ops_assistant',
      'toolgate.run_id': res.body.data.runId,
    });
    const trace = traceOf(run!);
    const steps = named('toolgate.run.step', trace);
    expect(steps.map((s) => s.attributes['toolgate.step'])).toEqual([0, 1]);
    expect(steps.every((s) => parentOf(s) === idOf(run!))).toBe(true);
    const models = named('toolgate.model.call', trace);
    expect(models.map((m) => parentOf(m))).toEqual(steps.map(idOf));
    const [call] = named('toolgate.call', trace);
    expect(parentOf(call!)).toBe(idOf(steps[0]!));
    expect(call!.attributes).toMatchObject({ 'toolgate.face': 'run', 'toolgate.tool': 'get_service_status' });
    expect(JSON.stringify(spans().map((s) => s.attributes))).not.toContain('支付服务');
  });
});
