import { Worker } from 'node:worker_threads';
import type { ParseAnswer, ParseJob, ParsedDocument } from './openapi-parse-job.js';
import { OpenApiSourceError } from './openapi-source-error.js';
import { PARSE_WORKER_HEAP_MB, PARSE_TIME_LIMIT_MS, PARSE_WORKERS } from './openapi-limits.js';
import { workerEntryFromSources } from './worker-from-sources.js';

/**
 * Reads documents off the event loop: validating compiles the OpenAPI meta-schema and
 * dereferencing walks the document, synchronously (1.4 s for a first load, 0.4 s for a changed
 * document), which would stall every call the gateway serves. Each document gets a fresh thread,
 * so a hostile one is stopped by terminating it (time limit, heap limit) and leaves nothing behind;
 * at most PARSE_WORKERS run at once, the rest wait their turn.
 */
export async function parseDocumentOffThread(
  job: ParseJob,
  limits: { timeLimitMs?: number } = {},
): Promise<ParsedDocument> {
  await slots.acquire();
  try {
    const answer = await runInWorker(job, limits.timeLimitMs ?? PARSE_TIME_LIMIT_MS);
    if (!answer.ok) throw new OpenApiSourceError(answer.failure, answer.message);
    return answer.document;
  } finally {
    slots.release();
  }
}

async function runInWorker(job: ParseJob, timeLimitMs: number): Promise<ParseAnswer> {
  const worker = new Worker(await workerEntry(), {
    resourceLimits: { maxOldGenerationSizeMb: PARSE_WORKER_HEAP_MB },
    stdout: true,
    stderr: true,
  });
  return new Promise<ParseAnswer>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(
            new OpenApiSourceError(
              'invalid',
              `Reading the document took longer than ${timeLimitMs / 1000} s; it was given up`,
            ),
          ),
        ),
      timeLimitMs,
    );
    worker.once('message', (answer: string) => settle(() => resolve(JSON.parse(answer) as ParseAnswer)));
    worker.once('error', (err: Error & { code?: string }) =>
      settle(() =>
        reject(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new OpenApiSourceError(
                'too_large',
                `Reading the document needed more than ${PARSE_WORKER_HEAP_MB} MB of memory`,
              )
            : new OpenApiSourceError('invalid', `The document cannot be read: ${err.message.split('\n')[0]}`),
        ),
      ),
    );
    worker.once('exit', (code) =>
      settle(() =>
        reject(new OpenApiSourceError('invalid', `The document reader stopped (exit code ${code})`)),
      ),
    );
    worker.postMessage(job);
  });
}

let entry: Promise<URL> | undefined;

/**
 * The worker's module: the compiled sibling in a build (`dist/.../openapi-parse-worker.js`); when
 * the gateway runs from its TypeScript sources (the test runner), Node cannot load `.ts` in a
 * thread, so the worker's files are compiled once per process.
 */
function workerEntry(): Promise<URL> {
  entry ??= import.meta.url.endsWith('.ts')
    ? workerEntryFromSources(new URL('./openapi-parse-worker.ts', import.meta.url))
    : Promise.resolve(new URL('./openapi-parse-worker.js', import.meta.url));
  entry.catch(() => (entry = undefined));
  return entry;
}

/** A counting semaphore: at most `size` holders, the others queued in order. */
class Slots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  acquire(): Promise<void> {
    if (this.active < this.size) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}

const slots = new Slots(PARSE_WORKERS);
