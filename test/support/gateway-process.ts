import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

const MAIN = resolve('dist/apps/gateway/src/main.js');
/** The built gateway with test/support's test tools loaded (test/support/tools-gateway-main.ts). */
export const TOOLS_GATEWAY_MAIN = resolve('dist/test/support/tools-gateway-main.js');

/** A gateway running as its own OS process (the built `dist`), as in production. */
export interface GatewayProcess {
  readonly url: string;
  readonly pid: number;
  readonly output: string[];
  /** SIGTERM and wait; `signal: 'SIGKILL'` to die mid-call. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `node dist/apps/gateway/src/main.js` (or `options.entry`, e.g. TOOLS_GATEWAY_MAIN) with
 * `env` and waits until it serves.
 */
export async function startGatewayProcess(
  env: Record<string, string>,
  options: { entry?: string } = {},
): Promise<GatewayProcess> {
  const entry = options.entry ?? MAIN;
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run npm run build first (npm test does)`);
  const child: ChildProcess = spawn(process.execPath, [entry], {
    env: { ...process.env, PORT: '0', TOOLGATE_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      output.push(line);
      const m = /serving on (http:\/\/\S+)/.exec(line);
      if (m) resolveUrl(m[1]!.replace('localhost', '127.0.0.1'));
    });
    child.once('exit', (code) =>
      reject(new Error(`gateway exited with ${code} before serving:\n${output.join('')}`)),
    );
  });
  return {
    url,
    pid: child.pid!,
    output,
    stop: (signal = 'SIGTERM') =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill(signal);
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

/** Runs `total` requests with `concurrency` workers; `make(i)` builds request i. */
export async function runLoad<T>(
  total: number,
  concurrency: number,
  make: (i: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array(total);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        results[i] = await make(i);
      }
    }),
  );
  return results;
}
