import { describe, expect, it } from 'vitest';
import { ModelError, type ModelMessage, type ModelTool, type ModelTurn } from '../model-client.js';
import { DEMO_MODEL, DemoPlanner } from './demo-planner.js';

const tool = (name: string, required: string[], properties: string[] = required): ModelTool => ({
  name,
  description: name,
  parameters: {
    type: 'object',
    properties: Object.fromEntries(properties.map((p) => [p, { type: 'string' }])),
    required,
  },
});

const TOOLS = [
  tool('get_service_status', ['service']),
  tool('read_logs', ['service'], ['service', 'window', 'level', 'limit']),
  tool('restart_service', ['service', 'reason']),
  tool('query_supplier_delivery', ['supplierId'], ['supplierId', 'from', 'to', 'status']),
];

const planner = new DemoPlanner();
const turn = (messages: ModelMessage[], tools = TOOLS, parallelToolCalls?: boolean): Promise<ModelTurn> =>
  planner.complete({ model: { provider: 'demo', model: DEMO_MODEL }, messages, tools, parallelToolCalls });
const user = (content: string): ModelMessage => ({ role: 'user', content });
const calls = (t: ModelTurn) => t.toolCalls.map((c) => [c.name, JSON.parse(c.arguments) as unknown]);

describe('DemoPlanner', () => {
  it('picks the tool the question names by keyword and fills its input from the text', async () => {
    const first = await turn([user('payment-api 现在什么状态？')]);
    expect(calls(first)).toEqual([['get_service_status', { service: 'payment-api' }]]);
    expect(first).toMatchObject({
      text: null,
      finishReason: 'tool_calls',
      usage: { inputTokens: 0, outputTokens: 0 },
    });
  });

  it('asks for every matching tool in one turn, or one at a time when parallel calls are off', async () => {
    const messages = [user('Show the status and the error logs of order-service')];
    expect(calls(await turn(messages))).toEqual([
      ['get_service_status', { service: 'order-service' }],
      ['read_logs', { service: 'order-service' }],
    ]);
    const one = await turn(messages, TOOLS, false);
    expect(calls(one)).toEqual([['get_service_status', { service: 'order-service' }]]);
    const next = await turn(
      [
        ...messages,
        { role: 'assistant', content: null, toolCalls: one.toolCalls },
        { role: 'tool', toolCallId: one.toolCalls[0]!.id, content: '{"status":"healthy"}' },
      ],
      TOOLS,
      false,
    );
    expect(calls(next)).toEqual([['read_logs', { service: 'order-service' }]]);
    expect(next.toolCalls[0]!.id).not.toBe(one.toolCalls[0]!.id);
  });

  it('gives a restart a reason of at least 10 characters and reads supplier ids', async () => {
    expect(calls(await turn([user('重启 a-b')]))).toEqual([
      ['restart_service', { service: 'a-b', reason: '重启 a-b (requested in an agent run)' }],
    ]);
    expect(calls(await turn([user('please restart a-b')]))).toEqual([
      ['restart_service', { service: 'a-b', reason: 'please restart a-b' }],
    ]);
    expect(calls(await turn([user('供应商 V10023 的交货情况')]))).toEqual([
      ['query_supplier_delivery', { supplierId: 'V10023' }],
    ]);
  });

  it('answers from the tool results in the language of the question', async () => {
    const zh = [user('payment-api 状态如何？')];
    const asked = await turn(zh);
    const answer = await turn([
      ...zh,
      { role: 'assistant', content: null, toolCalls: asked.toolCalls },
      {
        role: 'tool',
        toolCallId: asked.toolCalls[0]!.id,
        content: '{"service":"payment-api","status":"degraded"}',
      },
    ]);
    expect(answer).toMatchObject({ toolCalls: [], finishReason: 'stop' });
    expect(answer.text).toBe(
      '根据工具结果：\n- get_service_status：{"service":"payment-api","status":"degraded"}',
    );

    const en = [user('What is the status of payment-api?')];
    const enAnswer = await turn([
      ...en,
      { role: 'assistant', content: null, toolCalls: asked.toolCalls },
      { role: 'tool', toolCallId: asked.toolCalls[0]!.id, content: '{"status":"healthy"}' },
    ]);
    expect(enAnswer.text).toBe('From the tool results:\n- get_service_status: {"status":"healthy"}');
  });

  it('names a failed call, e.g. a denied approval, in the answer', async () => {
    const messages = [user('重启 payment-api，它一直超时')];
    const asked = await turn(messages, [TOOLS[2]!]);
    const envelope = { error: '审批被拒绝', code: 'APPROVAL_DENIED', suggestedAction: 'ask' };
    const answer = await turn(
      [
        ...messages,
        { role: 'assistant', content: null, toolCalls: asked.toolCalls },
        { role: 'tool', toolCallId: asked.toolCalls[0]!.id, content: JSON.stringify(envelope) },
      ],
      [TOOLS[2]!],
    );
    expect(answer.text).toBe('根据工具结果：\n- restart_service 未成功：APPROVAL_DENIED（审批被拒绝）');
  });

  it('answers directly when no tool matches or a required input is missing', async () => {
    const hello = await turn([user('你好')]);
    expect(hello).toMatchObject({ toolCalls: [], finishReason: 'stop' });
    expect(hello.text).toContain('没有与问题匹配的工具');
    const noService = await turn([user('restart something please')]);
    expect(noService.toolCalls).toEqual([]);
    expect(noService.text).toContain('No tool matches the question');
  });

  it('streams its text through onTextDelta, refuses other models and honours an aborted signal', async () => {
    const deltas: string[] = [];
    const answer = await planner.complete({
      model: { provider: 'demo', model: DEMO_MODEL },
      messages: [user('hi')],
      tools: [],
      onTextDelta: (d) => deltas.push(d),
    });
    expect(deltas).toEqual([answer.text]);
    await expect(
      planner.complete({ model: { provider: 'demo', model: 'gpt-9' }, messages: [], tools: [] }),
    ).rejects.toBeInstanceOf(ModelError);
    const aborted = AbortSignal.abort(new Error('cancelled'));
    await expect(
      planner.complete({
        model: { provider: 'demo', model: DEMO_MODEL },
        messages: [],
        tools: [],
        signal: aborted,
      }),
    ).rejects.toThrow('cancelled');
  });
});
