import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/test-gateway.js';

/**
 * A well-behaved client sending a body over the limit reads the 413 envelope every time, however
 * fast it writes: the gateway reads and discards the rest of the body (up to a bound) before it
 * answers, instead of closing while the client is still writing (which the client sees as EPIPE or
 * a reset, not the envelope).
 */
describe('an oversized body', () => {
  let gw: TestGateway;
  let agentKey: string;

  beforeAll(async () => {
    gw = await startTestGateway();
    agentKey = await gw.createKey('agent', 'acme', { agentTypes: ['ops_assistant'] });
  });
  afterAll(() => gw?.close());

  it.each([
    ['invoke', '/v1/agents/ops_assistant/tools/get_service_status/invoke', 200, false],
    ['invoke, chunked', '/v1/agents/ops_assistant/tools/get_service_status/invoke', 30, true],
    ['mcp', '/mcp/ops_assistant', 30, false],
    ['a controller route', '/v1/agents/ops_assistant/runs', 30, false],
  ])(
    '2 MiB to %s is answered with its 413 envelope every time over fetch',
    async (_name, path, times, chunked) => {
      const body = JSON.stringify({ input: {}, pad: 'x'.repeat(2 * 1024 * 1024) });
      const outcomes: Record<string, number> = {};
      for (let i = 0; i < times; i++) {
        let outcome: string;
        try {
          const bytes = Buffer.from(body);
          const res = await fetch(`${gw.url}${path}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${agentKey}`, 'content-type': 'application/json' },
            body: chunked
              ? new ReadableStream({
                  start(c) {
                    for (let o = 0; o < bytes.length; o += 65536) c.enqueue(bytes.subarray(o, o + 65536));
                    c.close();
                  },
                })
              : body,
            ...(chunked ? { duplex: 'half' } : {}),
          } as RequestInit);
          const envelope = (await res.json()) as { code?: string; error?: { data?: { code?: string } } };
          outcome = `${res.status} ${envelope.code ?? envelope.error?.data?.code}`;
        } catch (err) {
          outcome = `${(err as Error).message}: ${String(((err as Error).cause as Error | undefined)?.message)}`;
        }
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      }
      expect(outcomes).toEqual({ '413 PAYLOAD_TOO_LARGE': times });
    },
  );

  /** A raw connection: what arrives, and whether the server ended it. */
  const rawClient = (socket: Socket) => {
    const state = { text: '', ended: false, writeError: undefined as Error | undefined };
    socket.on('data', (d: Buffer) => (state.text += d.toString('latin1')));
    socket.on('end', () => (state.ended = true));
    socket.on('error', (err) => (state.writeError = err));
    return state;
  };

  it('is answered only once the client has sent all of it, so a slow writer reads the 413 too', async () => {
    const { hostname, port } = new URL(gw.url);
    const socket = connect(Number(port), hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    const client = rawClient(socket);
    const half = Buffer.alloc(1536 * 1024, 'x');
    socket.write(
      'POST /v1/agents/ops_assistant/tools/get_service_status/invoke HTTP/1.1\r\n' +
        `host: ${hostname}\r\nauthorization: Bearer ${agentKey}\r\ncontent-type: application/json\r\n` +
        `content-length: ${2 * half.length}\r\n\r\n`,
    );
    socket.write(half);
    // Before the change the 413 came here, with the connection closed under the second write.
    await sleep(300);
    expect(client.text).toBe('');
    await new Promise<void>((resolve, reject) =>
      socket.write(half, (err) => (err ? reject(err) : resolve())),
    );
    for (let i = 0; i < 100 && !client.ended; i++) await sleep(20);
    expect(client.writeError).toBeUndefined();
    expect(client.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(client.text).toContain('"code":"PAYLOAD_TOO_LARGE"');
    socket.destroy();
  });

  it('is refused at once when its Content-Length is beyond what the gateway drains', async () => {
    const { hostname, port } = new URL(gw.url);
    const socket = connect(Number(port), hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    const client = rawClient(socket);
    socket.write(
      'POST /v1/agents/ops_assistant/tools/get_service_status/invoke HTTP/1.1\r\n' +
        `host: ${hostname}\r\nauthorization: Bearer ${agentKey}\r\ncontent-type: application/json\r\n` +
        `content-length: ${64 * 1024 * 1024}\r\n\r\n{"input":`,
    );
    for (let i = 0; i < 100 && !client.ended; i++) await sleep(20);
    expect(client.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(client.text).toMatch(/connection: close/i);
    socket.destroy();
  });
});
