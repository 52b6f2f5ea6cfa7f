import { ModelError, OpenAICompatibleClient, type ModelTurnRequest } from '@toolgate/models';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIScript } from '../support/fake-openai.js';

const KEY = 'sk-fake-0123456789';
const STATUS_TOOL = {
  name: 'get_service_status',
  description: 'Status of a service',
  parameters: { type: 'object', properties: { service: { type: 'string' } }, required: ['service'] },
};

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function clientFor(
  script: FakeOpenAIScript,
  options: { maxRetries?: number; timeoutMs?: number } = {},
) {
  fake = await startFakeOpenAI(script);
  return new OpenAICompatibleClient('acme-llm', {
    baseUrl: fake.url,
    apiKey: KEY,
    timeoutMs: options.timeoutMs ?? 5_000,
    maxRetries: options.maxRetries ?? 2,
  });
}

const request = (extra: Partial<ModelTurnRequest> = {}): ModelTurnRequest => ({
  model: { provider: 'acme-llm', model: 'qwen-plus' },
  messages: [
    { role: 'system', content: 'You are ops.' },
    { role: 'user', content: 'status of payment-api?' },
  ],
  tools: [STATUS_TOOL],
  ...extra,
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('should have failed'),
    (error: unknown) => error,
  );

describe('OpenAICompatibleClient against a scripted OpenAI-compatible server', () => {
  it('sends messages, tools and the key the OpenAI way and reads the tool calls and usage', async () => {
    const client = await clientFor([
      {
        toolCalls: [{ id: 'call_1', name: 'get_service_status', arguments: '{"service":"payment-api"}' }],
        usage: { inputTokens: 42, outputTokens: 7 },
      },
    ]);
    const turn = await client.complete(
      request({
        parallelToolCalls: true,
        messages: [
          { role: 'user', content: 'status?' },
          {
            role: 'assistant',
            content: null,
            toolCalls: [{ id: 'c0', name: 'get_service_status', arguments: '{}' }],
          },
          {
            role: 'tool',
            toolCallId: 'c0',
            content: '{"error":"service is required","code":"INVALID_INPUT"}',
          },
        ],
      }),
    );
    expect(turn).toEqual({
      text: null,
      toolCalls: [{ id: 'call_1', name: 'get_service_status', arguments: '{"service":"payment-api"}' }],
      usage: { inputTokens: 42, outputTokens: 7 },
      finishReason: 'tool_calls',
    });
    expect(fake!.authorizations).toEqual([`Bearer ${KEY}`]);
    expect(fake!.requests[0]).toMatchObject({
      model: 'qwen-plus',
      parallel_tool_calls: true,
      tools: [{ type: 'function', function: STATUS_TOOL }],
      messages: [
        { role: 'user', content: 'status?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c0', type: 'function', function: { name: 'get_service_status', arguments: '{}' } },
          ],
        },
        {
          role: 'tool',
          tool_call_id: 'c0',
          content: '{"error":"service is required","code":"INVALID_INPUT"}',
        },
      ],
    });
    expect(fake!.requests[0]!.stream).toBeUndefined();
  });

  it('returns parallel tool calls in order, malformed arguments as the raw text, and plain text answers', async () => {
    const client = await clientFor([
      {
        toolCalls: [
          { name: 'get_service_status', arguments: '{"service":"a"}' },
          { name: 'get_service_status', arguments: '{"service": "b"' },
        ],
      },
      { text: 'All good.' },
    ]);
    const calls = await client.complete(request());
    expect(calls.toolCalls.map((c) => c.arguments)).toEqual(['{"service":"a"}', '{"service": "b"']);
    expect(await client.complete(request({ tools: [] }))).toMatchObject({
      text: 'All good.',
      toolCalls: [],
      finishReason: 'stop',
    });
    expect(fake!.requests[1]).not.toHaveProperty('tools');
    expect(fake!.requests[1]).not.toHaveProperty('parallel_tool_calls');
  });

  it('streams text deltas and assembles streamed tool calls by index, with the usage of the last chunk', async () => {
    const client = await clientFor([
      {
        text: 'Checking both services now.',
        toolCalls: [
          { id: 'call_a', name: 'get_service_status', arguments: '{"service":"payment-api"}' },
          { id: 'call_b', name: 'read_logs', arguments: '{"service":"order-service","level":"error"}' },
        ],
        usage: { inputTokens: 100, outputTokens: 20 },
      },
    ]);
    const deltas: string[] = [];
    const turn = await client.complete(request({ onTextDelta: (d) => deltas.push(d) }));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Checking both services now.');
    expect(turn).toEqual({
      text: 'Checking both services now.',
      toolCalls: [
        { id: 'call_a', name: 'get_service_status', arguments: '{"service":"payment-api"}' },
        { id: 'call_b', name: 'read_logs', arguments: '{"service":"order-service","level":"error"}' },
      ],
      usage: { inputTokens: 100, outputTokens: 20 },
      finishReason: 'tool_calls',
    });
    expect(fake!.requests[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('retries a 429 and answers with the retry', async () => {
    const client = await clientFor([{ status: 429, errorMessage: 'slow down' }, { text: 'ok' }]);
    expect((await client.complete(request())).text).toBe('ok');
    expect(fake!.requests).toHaveLength(2);
  });

  it('fails MODEL_UNAVAILABLE on a 500 that outlasts the retries, naming provider and status', async () => {
    const client = await clientFor(() => ({ status: 500, errorMessage: 'upstream exploded' }), {
      maxRetries: 2,
    });
    const error = await failure(client.complete(request()));
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({
      code: 'MODEL_UNAVAILABLE',
      status: 500,
      reason: 'model provider acme-llm answered 500: upstream exploded',
    });
    expect(fake!.requests).toHaveLength(3);
  });

  it('fails MODEL_REJECTED on a 401 without retrying and never shows the key', async () => {
    const client = await clientFor([{ status: 401, errorMessage: `Incorrect API key provided: ${KEY}` }]);
    const error = await failure(client.complete(request()));
    expect(error).toMatchObject({
      code: 'MODEL_REJECTED',
      status: 401,
      reason: 'model provider acme-llm answered 401: Incorrect API key provided: [REDACTED]',
    });
    expect(JSON.stringify(error) + String(error)).not.toContain(KEY);
    expect(fake!.requests).toHaveLength(1);
  });

  it('fails MODEL_UNAVAILABLE when the provider is too slow or unreachable', async () => {
    const slow = await clientFor([{ delayMs: 2_000, text: 'late' }], { timeoutMs: 100, maxRetries: 0 });
    expect(await failure(slow.complete(request()))).toMatchObject({
      code: 'MODEL_UNAVAILABLE',
      reason: 'model provider acme-llm did not answer within 100 ms',
    });
    await fake!.close();
    const gone = new OpenAICompatibleClient('acme-llm', {
      baseUrl: fake!.url,
      apiKey: KEY,
      timeoutMs: 1_000,
      maxRetries: 0,
    });
    fake = undefined;
    expect(await failure(gone.complete(request()))).toMatchObject({
      code: 'MODEL_UNAVAILABLE',
      reason: 'model provider acme-llm could not be reached',
    });
  });

  it('stops at once when the caller aborts, with the reason of its signal', async () => {
    const client = await clientFor([{ delayMs: 5_000, text: 'too late' }]);
    const controller = new AbortController();
    const cancelled = new Error('run cancelled');
    setTimeout(() => controller.abort(cancelled), 50);
    const started = Date.now();
    expect(await failure(client.complete(request({ signal: controller.signal })))).toBe(cancelled);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
