import Fastify from 'fastify';
import { z } from 'zod';

/**
 * The bench tools called directly: a plain Fastify route per tool doing what the tool does (check
 * its input, answer its output), nothing else — no key, no governance, no audit. What the
 * fixed-rate section subtracts to get the latency the gateway adds.
 */
const record = z.object({ note: z.string().max(200), fail: z.boolean().default(false) });

const app = Fastify({ logger: false });
app.post('/tools/bench_noop', async () => ({ data: { ok: true }, status: 'ok' }));
app.post('/tools/bench_record', async (request, reply) => {
  const parsed = record.safeParse((request.body as { input?: unknown } | undefined)?.input);
  if (!parsed.success) return reply.status(400).send({ error: parsed.error.message, code: 'INVALID_INPUT' });
  return { data: { stored: parsed.data.note.length }, status: 'ok' };
});

app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' }).then(() => {
  const address = app.server.address();
  process.stdout.write(
    `${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`,
  );
});
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
