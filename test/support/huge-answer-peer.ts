import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How much a huge answer would be if nobody stopped reading it. */
export const HUGE_ANSWER_BYTES = 200 * 1024 * 1024;

/** One answer the peer started, and how many bytes of it the socket took so far. */
export interface HugeAnswer {
  readonly path: string;
  bytesSent: number;
  /** True once the client hung up before the end. */
  cutOff: boolean;
}

/**
 * A loopback peer whose answers are far larger than any bound (200 MB), written with backpressure
 * so that `bytesSent` counts what the client actually took, not what the peer meant to send.
 * - `/mcp`: a stateless MCP server; `tools/list` names `huge_json` (answers 200 MB of JSON) and
 *   `huge_sse` (200 MB as one server-sent event). `/mcp-huge-list`: its `tools/list` is 200 MB.
 * - any other path (a webhook, Feishu's token and message APIs): 200 MB of JSON.
 */
export interface HugeAnswerPeer {
  readonly url: string;
  readonly answers: HugeAnswer[];
  /** Requests received, by path. */
  readonly paths: string[];
  close(): Promise<void>;
}

const CHUNK = Buffer.alloc(64 * 1024, 0x61);

/** Writes head, `total` bytes of `a`, tail; stops as soon as the client goes away. */
async function streamHuge(res: ServerResponse, answer: HugeAnswer, head: string, tail: string) {
  const closed = new Promise<void>((resolve) => res.once('close', resolve));
  res.write(head);
  answer.bytesSent += Buffer.byteLength(head);
  while (answer.bytesSent < HUGE_ANSWER_BYTES && !res.destroyed) {
    const more = res.write(CHUNK);
    answer.bytesSent += CHUNK.length;
    if (!more) await Promise.race([new Promise((resolve) => res.once('drain', resolve)), closed]);
  }
  if (res.destroyed) answer.cutOff = true;
  else res.end(tail);
}

const TOOLS = [
  { name: 'huge_json', description: 'Answers 200 MB of JSON.', inputSchema: { type: 'object' } },
  { name: 'huge_sse', description: 'Answers 200 MB as one event.', inputSchema: { type: 'object' } },
];

async function readJson(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

function mcp(req: IncomingMessage, res: ServerResponse, message: any, answer: () => HugeAnswer): void {
  const reply = (result: unknown) =>
    void res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  if (message.id === undefined) return void res.writeHead(202).end();
  if (message.method === 'initialize')
    return reply({
      protocolVersion: message.params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: 'huge-peer', version: '1.0.0' },
    });
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":`;
  if (message.method === 'tools/list') {
    if (req.url !== '/mcp-huge-list') return reply({ tools: TOOLS });
    res.writeHead(200, { 'content-type': 'application/json' });
    return void streamHuge(res, answer(), `${head}{"tools":[],"padding":"`, '"}}');
  }
  if (message.method === 'tools/call' && message.params.name === 'huge_sse') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const text = `${head}{"content":[{"type":"text","text":"`;
    return void streamHuge(res, answer(), `event: message\ndata: ${text}`, '"}]}}\n\n');
  }
  if (message.method === 'tools/call') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return void streamHuge(res, answer(), `${head}{"content":[{"type":"text","text":"`, '"}]}}');
  }
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'no' } }));
}

/** Starts the peer on a free loopback port. */
export async function startHugeAnswerPeer(): Promise<HugeAnswerPeer> {
  const answers: HugeAnswer[] = [];
  const paths: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://peer').pathname;
    paths.push(path);
    const answer = () => {
      const a: HugeAnswer = { path, bytesSent: 0, cutOff: false };
      answers.push(a);
      return a;
    };
    readJson(req)
      .then((message) => {
        // No standalone stream (GET) and no sessions (DELETE), as a stateless server may answer.
        if (req.method !== 'POST') return void res.writeHead(405).end();
        if (path.startsWith('/mcp')) return mcp(req, res, message, answer);
        res.writeHead(200, { 'content-type': 'application/json' });
        return void streamHuge(res, answer(), '{"code":0,"msg":"', '"}');
      })
      .catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answers,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
