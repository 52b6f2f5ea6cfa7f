import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** A tool call the fake model asks for; `arguments` is sent exactly as given (may be malformed). */
export interface FakeToolCall {
  readonly id?: string;
  readonly name: string;
  readonly arguments: string;
}

/** What the fake answers to one request. */
export interface FakeReply {
  readonly text?: string;
  readonly toolCalls?: readonly FakeToolCall[];
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
  readonly finishReason?: string;
  /** An HTTP error instead of an answer, with an OpenAI-style `{error: {message}}` body. */
  readonly status?: number;
  readonly errorMessage?: string;
  /** Wait this long before answering (a client that gives up closes the connection meanwhile). */
  readonly delayMs?: number;
}

/** Replies in order, one per request, or a function of the request body and its index. */
export type FakeOpenAIScript =
  | readonly FakeReply[]
  | ((body: FakeChatRequest, index: number, hungUp: AbortSignal) => FakeReply | Promise<FakeReply>);

/** A recorded chat-completions request body (what the client sent, parsed). */
export type FakeChatRequest = Record<string, unknown> & {
  readonly model?: string;
  readonly messages?: readonly Record<string, unknown>[];
  readonly tools?: readonly Record<string, unknown>[];
  readonly stream?: boolean;
};

/** When a request was received and its answer written (process.hrtime, ns), for benchmarks. */
export interface FakeTiming {
  readonly index: number;
  readonly body: FakeChatRequest;
  readonly receivedNs: bigint;
  readonly answeredNs: bigint;
}

export interface FakeOpenAIOptions {
  /** Called once the answer to a request is fully written (not for requests that fail to parse). */
  readonly onAnswered?: (timing: FakeTiming) => void;
  /** Keep every request body in `requests` (default); a long benchmark turns it off. */
  readonly record?: boolean;
}

/** The question of a request: its last user message. */
export const questionOf = (body: FakeChatRequest): string =>
  String([...(body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? '');

/** The tool results a request carries (none on a run's first turn). */
export const toolResultsOf = (body: FakeChatRequest): readonly Record<string, unknown>[] =>
  (body.messages ?? []).filter((m) => m.role === 'tool');

export interface FakeOpenAI {
  /** The base URL to configure, e.g. http://127.0.0.1:41234/v1. */
  readonly url: string;
  /** Every request body, in order of arrival. */
  readonly requests: FakeChatRequest[];
  /** The Authorization header of every request, in the same order. */
  readonly authorizations: (string | undefined)[];
  close(): Promise<void>;
}

/** Errors tell the client to retry after 1 ms, so tests of retries stay fast. */
const RETRY_AFTER_MS = '1';
const EXHAUSTED: FakeReply = { status: 500, errorMessage: 'fake-openai: the script has no more replies' };

/**
 * A scripted OpenAI-compatible server on a real loopback socket: `POST …/chat/completions`, as JSON
 * or as server-sent events when the request says `stream: true` (text in small pieces, tool calls
 * as id+name then argument pieces, usage in a last chunk when `stream_options.include_usage`).
 */
export async function startFakeOpenAI(
  script: FakeOpenAIScript,
  options: FakeOpenAIOptions = {},
): Promise<FakeOpenAI> {
  const record = options.record ?? true;
  let count = 0;
  const requests: FakeChatRequest[] = [];
  const authorizations: (string | undefined)[] = [];
  const replyTo = async (body: FakeChatRequest, index: number, hungUp: AbortSignal): Promise<FakeReply> =>
    typeof script === 'function' ? script(body, index, hungUp) : (script[index] ?? EXHAUSTED);

  const server = createServer((req, res) => {
    void handle(req, res, process.hrtime.bigint()).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse, receivedNs: bigint): Promise<void> {
    const raw = await readBody(req);
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      return sendError(res, 404, `fake-openai: no route ${req.method} ${req.url}`);
    }
    const body = JSON.parse(raw) as FakeChatRequest;
    const index = count++;
    if (record) {
      requests.push(body);
      authorizations.push(req.headers.authorization);
    }
    // Fires when the client hangs up before the answer (it gave up, or its run was stopped).
    const hungUp = new AbortController();
    res.on('close', () => res.writableFinished || hungUp.abort());
    const reply = await replyTo(body, index, hungUp.signal);
    if (reply.delayMs && !(await waitUnlessClosed(res, reply.delayMs))) return;
    answer(res, body, index, reply);
    options.onAnswered?.({ index, body, receivedNs, answeredNs: process.hrtime.bigint() });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(res: ServerResponse, body: FakeChatRequest, index: number, reply: FakeReply): void {
  if (reply.status) return sendError(res, reply.status, reply.errorMessage ?? `fake-openai: ${reply.status}`);
  const model = body.model ?? 'fake';
  if (body.stream) return sendStream(res, model, index, reply, includeUsage(body));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(completion(model, index, reply)));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Resolves false when the client hangs up first (it timed out or was aborted). */
function waitUnlessClosed(res: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(true), ms);
    res.on('close', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}

function sendError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'retry-after-ms': RETRY_AFTER_MS });
  res.end(JSON.stringify({ error: { message, type: 'fake_error', code: null } }));
}

const includeUsage = (body: FakeChatRequest) =>
  (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;

const callId = (index: number, i: number, call: FakeToolCall) => call.id ?? `call_${index}_${i}`;

const usageOf = (reply: FakeReply) => ({
  prompt_tokens: reply.usage?.inputTokens ?? 0,
  completion_tokens: reply.usage?.outputTokens ?? 0,
  total_tokens: (reply.usage?.inputTokens ?? 0) + (reply.usage?.outputTokens ?? 0),
});

const finishReasonOf = (reply: FakeReply) =>
  reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop');

function completion(model: string, index: number, reply: FakeReply) {
  return {
    id: `chatcmpl-${index}`,
    object: 'chat.completion',
    created: 0,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text ?? null,
          ...(reply.toolCalls?.length
            ? {
                tool_calls: reply.toolCalls.map((call, i) => ({
                  id: callId(index, i, call),
                  type: 'function',
                  function: { name: call.name, arguments: call.arguments },
                })),
              }
            : {}),
        },
        finish_reason: finishReasonOf(reply),
      },
    ],
    usage: usageOf(reply),
  };
}

function sendStream(
  res: ServerResponse,
  model: string,
  index: number,
  reply: FakeReply,
  withUsage: boolean,
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    id: `chatcmpl-${index}`,
    object: 'chat.completion.chunk',
    created: 0,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
  const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);

  send(chunk({ role: 'assistant', content: '' }));
  for (const piece of pieces(reply.text ?? '', 4)) send(chunk({ content: piece }));
  // Tool calls: each one's id and name first, then their argument pieces interleaved, so a client
  // must assemble them by index as with real providers.
  const calls = reply.toolCalls ?? [];
  calls.forEach((call, i) => {
    const header = {
      index: i,
      id: callId(index, i, call),
      type: 'function',
      function: { name: call.name, arguments: '' },
    };
    send(chunk({ tool_calls: [header] }));
  });
  const argumentPieces = calls.map((call) => pieces(call.arguments, 2));
  for (let round = 0; round < 2; round++) {
    argumentPieces.forEach((callPieces, i) => {
      const piece = callPieces[round];
      if (piece) send(chunk({ tool_calls: [{ index: i, function: { arguments: piece } }] }));
    });
  }
  send(chunk({}, finishReasonOf(reply)));
  if (withUsage)
    send({
      id: `chatcmpl-${index}`,
      object: 'chat.completion.chunk',
      created: 0,
      model,
      choices: [],
      usage: usageOf(reply),
    });
  res.end('data: [DONE]\n\n');
}

/** `text` in `count` roughly equal pieces (none when empty). */
function pieces(text: string, count: number): string[] {
  if (!text) return [];
  const size = Math.ceil(text.length / count);
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}
