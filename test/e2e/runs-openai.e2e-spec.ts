import {
  type FakeChatRequest,
  type FakeOpenAI,
  type FakeReply,
  questionOf,
  startFakeOpenAI,
  startTestGateway,
  type TestGateway,
  toolResultsOf,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const toolResults = toolResultsOf;

/**
 * Runs against a real OpenAI-compatible wire: the official client of the models lib talks over
 * loopback HTTP to a scripted server (JSON and streaming), configured the way an operator would
 * (`TOOLGATE_MODEL_BASE_URL`, `TOOLGATE_MODEL_API_KEY`, `TOOLGATE_MODEL`).
 */
describe('agent runs on an OpenAI-compatible model', () => {
  let fake: FakeOpenAI;
  let gw: TestGateway;
  let agent: string;
  /** Replies by question: the first turn, then the turn after the tool results. */
  const scripts = new Map<string, (body: FakeChatRequest) => FakeReply>();

  beforeAll(async () => {
    fake = await startFakeOpenAI((body) => scripts.get(questionOf(body))?.(body) ?? { text: 'ok' });
    gw = await startTestGateway({
      env: {
        TOOLGATE_MODEL_BASE_URL: fake.url,
        TOOLGATE_MODEL_API_KEY: 'sk-test-secret',
        TOOLGATE_MODEL: 'default/test-model',
      },
    });
    agent = await gw.createKey('agent', 'acme');
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  const start = (input: string) =>
    gw.api('POST', '/v1/agents/ops_assistant/runs', { key: agent, body: { input } });

  it('runs parallel tool calls and answers from their results; the model sees the tools in its format', async () => {
    scripts.set('两个服务怎么样？', (body) =>
      toolResults(body).length
        ? { text: `两个结果：${toolResults(body).length}`, usage: { inputTokens: 50, outputTokens: 7 } }
        : {
            toolCalls: [
              { id: 'a', name: 'get_service_status', arguments: '{"service":"payment-api"}' },
              { id: 'b', name: 'get_service_status', arguments: '{"service":"search-api"}' },
            ],
            usage: { inputTokens: 40, outputTokens: 12 },
          },
    );
    const res = await start('两个服务怎么样？');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'completed',
      model: 'default/test-model',
      output: '两个结果：2',
      usage: { inputTokens: 90, outputTokens: 19, totalTokens: 109 },
    });
    expect(res.body.data.steps[0].toolCalls.map((c: any) => c.status)).toEqual(['succeeded', 'succeeded']);
    const first = fake.requests.find((r) => questionOf(r) === '两个服务怎么样？')!;
    expect(first.model).toBe('test-model');
    expect((first.tools ?? []).map((t: any) => t.function.name)).toEqual([
      'get_service_status',
      'read_logs',
      'restart_service',
    ]);
    expect(fake.authorizations.at(-1)).toBe('Bearer sk-test-secret');
  });

  it('gives malformed arguments back as INVALID_INPUT and lets the model try again', async () => {
    scripts.set('bad json', (body) => {
      const results = toolResults(body);
      if (!results.length)
        return { toolCalls: [{ id: 'x', name: 'get_service_status', arguments: '{"service": ' }] };
      return { text: String(JSON.parse(String(results[0]!.content)).code) };
    });
    const run = (await start('bad json')).body.data;
    expect(run).toMatchObject({ status: 'completed', output: 'INVALID_INPUT' });
  });

  it('fails with MODEL_UNAVAILABLE when the provider answers 500 (after the client retries), MODEL_REJECTED on 401', async () => {
    scripts.set('server down', () => ({ status: 500, errorMessage: 'boom' }));
    const down = (await start('server down')).body.data;
    expect(down).toMatchObject({ status: 'failed', error: { code: 'MODEL_UNAVAILABLE' } });
    expect(JSON.stringify(down.error)).not.toContain('sk-test-secret');

    scripts.set('bad key', () => ({ status: 401, errorMessage: 'invalid api key' }));
    const rejected = (await start('bad key')).body.data;
    expect(rejected).toMatchObject({ status: 'failed', error: { code: 'MODEL_REJECTED' } });
  });

  it('streams the model text as text_delta events', async () => {
    scripts.set('say hello', () => ({ text: 'hello there, operator' }));
    const res = await fetch(`${gw.url}/v1/agents/ops_assistant/runs`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${agent}`,
        accept: 'text/event-stream',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ input: 'say hello' }),
    });
    const text = await res.text();
    const deltas = [...text.matchAll(/event: text_delta\ndata: (.*)\n/g)].map(
      (m) => JSON.parse(m[1]!).data.delta as string,
    );
    expect(deltas.join('')).toBe('hello there, operator');
    expect(text).toContain('event: run_finished');
  });
});
