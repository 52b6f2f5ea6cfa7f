import Fastify from 'fastify';
import { z } from 'zod';

/**
 * What a team would write without Toolgate: a plain Fastify route that validates with Zod, races
 * a 10 s timeout and wraps the envelope. The baseline governed calls are measured against.
 */
const input = z.object({});
const tool = async () => ({ ok: true });

const app = Fastify({ logger: false });
app.post('/invoke', async (request, reply) => {
  const parsed = input.safeParse((request.body as { input?: unknown } | undefined)?.input ?? {});
  if (!parsed.success)
    return reply.send({
      error: parsed.error.message,
      code: 'INVALID_INPUT',
      suggestedAction: 'fix the input',
    });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), 10_000)));
  try {
    const result = await Promise.race([tool(), timeout]);
    if (result === 'timeout')
      return reply.send({ error: '工具调用超时', code: 'TIMEOUT', suggestedAction: '缩小查询范围或重试' });
    return reply.send({ data: result, status: 'ok' });
  } catch (err) {
    return reply.send({ error: (err as Error).message, code: 'UPSTREAM_ERROR', suggestedAction: 'retry' });
  } finally {
    clearTimeout(timer);
  }
});

app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' }).then(() => {
  const address = app.server.address();
  process.stdout.write(
    `${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`,
  );
});
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
