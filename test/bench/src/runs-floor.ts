import OpenAI from 'openai';
import { z } from 'zod';
import { closedLoop } from './runs-load.js';

/**
 * The floor of the runs benchmark, started as its own process pinned to the gateway's core: the
 * same 3-turn agent loop written by hand directly against the official `openai` client (the
 * library libs/models uses, streamed like the gateway's turns), calling the no-op tool in-process,
 * with no persistence, no governance, no audit. Prints one JSON line with what it measured.
 *
 * Env: MODEL_URL, CONCURRENCY, and either RUNS (that many runs, each timed) or DURATION_S (as
 * many runs as fit, after a 1 s warm-up). TAG names the runs, so the model server can time them.
 */
const openai = new OpenAI({
  baseURL: process.env.MODEL_URL!,
  apiKey: 'none',
  organization: null,
  project: null,
  maxRetries: 2,
  timeout: 60_000,
  logLevel: 'off',
});
const noopInput = z.object({});
const noop = () => ({ ok: true });
const tools: OpenAI.Chat.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'bench_noop',
      description: 'Does nothing; measures the cost of governance itself.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
    },
  },
];

/** One run: ask, run the tool calls, give back their results, until the model answers in text. */
async function run(question: string): Promise<string> {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'system', content: 'Answer with the help of bench_noop.' },
    { role: 'user', content: question },
  ];
  for (let step = 0; step < 8; step++) {
    const stream = await openai.chat.completions.create({
      model: 'bench-model',
      messages,
      tools,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text: string | null = null;
    const calls: { id: string; name: string; arguments: string }[] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      if (delta?.content) text = (text ?? '') + delta.content;
      for (const c of delta?.tool_calls ?? []) {
        const call = (calls[c.index] ??= { id: '', name: '', arguments: '' });
        if (c.id) call.id = c.id;
        if (c.function?.name) call.name = c.function.name;
        if (c.function?.arguments) call.arguments += c.function.arguments;
      }
    }
    if (!calls.length) return text ?? '';
    messages.push({
      role: 'assistant',
      content: text,
      tool_calls: calls.map((c) => ({
        id: c.id,
        type: 'function' as const,
        function: { name: c.name, arguments: c.arguments },
      })),
    });
    for (const c of calls) {
      const parsed = noopInput.safeParse(JSON.parse(c.arguments || '{}'));
      const content = parsed.success
        ? JSON.stringify(noop())
        : JSON.stringify({ error: parsed.error.message, code: 'INVALID_INPUT' });
      messages.push({ role: 'tool', tool_call_id: c.id, content });
    }
  }
  throw new Error('step limit');
}

async function main(): Promise<void> {
  const concurrency = Number(process.env.CONCURRENCY ?? 1);
  const tag = process.env.TAG ?? 'floor';
  if (process.env.RUNS) {
    let next = 0;
    const total = Number(process.env.RUNS);
    const timed: { tag: string; startNs: string; endNs: string }[] = [];
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = next++; i < total; i = next++) {
          const question = `${tag} ${i}`;
          const start = process.hrtime.bigint();
          await run(question);
          timed.push({ tag: question, startNs: String(start), endNs: String(process.hrtime.bigint()) });
        }
      }),
    );
    process.stdout.write(`${JSON.stringify({ timed })}\n`);
    return;
  }
  const cpu = process.cpuUsage();
  const result = await closedLoop(concurrency, Number(process.env.DURATION_S ?? 5), (n) =>
    run(`${tag} ${n}`).then(() => undefined),
  );
  const used = process.cpuUsage(cpu);
  const cpuUsPerRun = (used.user + used.system) / Math.max(1, result.completed);
  process.stdout.write(`${JSON.stringify({ ...result, cpuUsPerRun })}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`runs floor failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
