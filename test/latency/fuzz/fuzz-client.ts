import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { transformSync } from '@swc/core';
import type { ClientJob, ClientResult } from './client-worker.js';

/** The files of the client thread, in dependency order; they import only Node's modules and each other. */
const CLIENT_FILES = ['fuzz-http.ts', 'answer-checks.ts', 'fuzz-findings.ts', 'client-worker.ts'];

/**
 * The client's files as one ES module: each compiled by SWC (types stripped), their imports of each
 * other dropped, concatenated. Vitest compiles the tests, not a worker thread's code, and Node 20
 * cannot run TypeScript itself.
 */
function clientModule(): string {
  return CLIENT_FILES.map((file) => {
    const source = readFileSync(new URL(file, import.meta.url), 'utf8');
    const { code } = transformSync(source, {
      filename: file,
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'es6' },
    });
    return code.replace(/^import [^;]* from ['"]\.\/[^'"]+['"];$/gm, '');
  }).join('\n');
}

/**
 * The fuzzer's HTTP client in a worker thread of its own. The gateway runs in this process, so its
 * event loop and heap are the ones /healthz measures: sending requests, reading answers of several
 * megabytes, parsing and checking them would otherwise load them too, and the latency measured would
 * be the fuzzer's as much as the gateway's.
 */
export class FuzzClient {
  private readonly worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(clientModule())}`));
  private readonly pending = new Map<
    number,
    { resolve: (r: ClientResult) => void; reject: (e: Error) => void }
  >();
  private next = 0;
  /** Why the worker is gone, once it is: every request after that fails at once. */
  private failure: Error | undefined;

  constructor() {
    this.worker.on('message', (result: ClientResult) => {
      this.pending.get(result.id)?.resolve(result);
      this.pending.delete(result.id);
    });
    const fail = (err: Error) => {
      this.failure ??= err;
      for (const { reject } of this.pending.values()) reject(err);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the fuzz client thread exited (${code})`)));
  }

  send(job: Omit<ClientJob, 'id'>): Promise<ClientResult> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...job, id } satisfies ClientJob);
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
