import { parentPort } from 'node:worker_threads';
import { answerProblems, type AskedFor } from './answer-checks.js';
import { findingsOf, type Finding } from './fuzz-findings.js';
import { NoAnswerError, sendWire, type Framing, type WireAnswer, type WireRequest } from './fuzz-http.js';

/**
 * The fuzzer's HTTP client, run in a worker thread (see fuzz-client.ts): it sends a request, checks
 * every answer against the contract and extracts what the answers reveal. Nothing here may import
 * anything but Node's own modules and the three files fuzz-client.ts compiles with it.
 */

/** One request to send and check. */
export interface ClientJob {
  readonly id: number;
  readonly base: string;
  readonly wire: WireRequest;
  /** The path as sent, without the query. */
  readonly path: string;
  readonly sse: boolean;
  readonly timeoutMs: number;
}

/** One answer, reduced to what the main thread needs. */
export interface ClientAnswer {
  readonly status: number;
  readonly via: string;
  /** Server closed the connection before the body was complete, after a framing lie. */
  readonly bodyCut: boolean;
  /** Contract problems of this answer, each followed by a summary of the answer. */
  readonly problems: readonly string[];
  /** For invoke requests: `200 ok`, `202 APPROVAL_PENDING`... */
  readonly outcome?: string;
  readonly findings: readonly Finding[];
}

export type ClientResult =
  | { readonly id: number; readonly answers: readonly ClientAnswer[] }
  | { readonly id: number; readonly noAnswer: string };

/**
 * Framing lies after which the server closes the connection at once (Node's rule), cutting an answer
 * it was still writing for the request before the lie: only its head can be checked.
 */
const CUT_BY_LIES: ReadonlySet<Framing> = new Set(['length-shorter', 'length-longer', 'chunked-garbage']);
const INVOKE_PATH = /^\/v1\/agents\/[^/]+\/tools\/[^/]+\/invoke$/;

function excerptOf(bytes: Buffer, max = 300): string {
  const text = JSON.stringify(bytes.subarray(0, max).toString('utf8'));
  return bytes.length > max ? `${text}… (${bytes.length} bytes)` : text;
}

function summaryOf(a: WireAnswer): string {
  return `${a.status} via ${a.via} in ${a.ms.toFixed(0)} ms, content-type ${a.headers['content-type'] ?? '(none)'}, body ${excerptOf(a.body)}`;
}

/** `200 ok`, `202 APPROVAL_PENDING`, `200 INVALID_INPUT`, `200 text/event-stream`... */
function outcomeOf(answer: WireAnswer): string {
  const type = answer.headers['content-type'] ?? '';
  if (!type.startsWith('application/json') || answer.body.length > 65_536)
    return `${answer.status} ${type.split(';')[0]}`;
  try {
    const body = JSON.parse(answer.body.toString('utf8')) as { code?: string; status?: string };
    return `${answer.status} ${body.code ?? body.status ?? '?'}`;
  } catch {
    return `${answer.status} (not JSON)`;
  }
}

function reduce(job: ClientJob, answer: WireAnswer, first: boolean): ClientAnswer {
  // Later answers on a raw socket are about what the server read after the request (the rest of a
  // body its framing lied about): still answers to that method, on no route.
  const asked: AskedFor = {
    method: job.wire.method,
    path: first ? job.path : '(the rest of the request)',
    sse: first && job.sse,
    bodyCut: !answer.complete && CUT_BY_LIES.has(job.wire.framing),
  };
  const problems = answerProblems(asked, answer);
  if (!answer.complete && !asked.bodyCut) problems.push('the answer was cut short');
  const summary = summaryOf(answer);
  return {
    status: answer.status,
    via: answer.via,
    bodyCut: asked.bodyCut === true,
    problems: problems.map((p) => `${p}\n  answer: ${summary}`),
    outcome: first && INVOKE_PATH.test(job.path) ? outcomeOf(answer) : undefined,
    findings:
      first && answer.status < 300 && !asked.bodyCut
        ? findingsOf(
            job.wire.method,
            job.path,
            answer.headers['content-type'] ?? '',
            answer.body,
            answer.headers['x-call-id'],
          )
        : [],
  };
}

/** Sends a job's request and checks its answers. */
export async function runJob(job: ClientJob): Promise<ClientResult> {
  // A body arrives as a plain Uint8Array: the structured clone drops Buffer's prototype.
  const body =
    job.wire.body && Buffer.from(job.wire.body.buffer, job.wire.body.byteOffset, job.wire.body.byteLength);
  try {
    const { answers } = await sendWire(job.base, { ...job.wire, body }, job.timeoutMs);
    return { id: job.id, answers: answers.map((a, i) => reduce(job, a, i === 0)) };
  } catch (err) {
    if (err instanceof NoAnswerError) return { id: job.id, noAnswer: err.message };
    return { id: job.id, noAnswer: `the client failed: ${(err as Error).stack ?? String(err)}` };
  }
}

if (parentPort) {
  const port = parentPort;
  port.on('message', (job: ClientJob) => void runJob(job).then((result) => port.postMessage(result)));
}
