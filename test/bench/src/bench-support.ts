import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { recordTable } from './bench-report.js';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** p50, p99 and mean of a set of samples, in µs. */
export interface Percentiles {
  readonly p50: number;
  readonly p99: number;
  readonly mean: number;
}

/** Latency percentiles of a sample (sorted here), in microseconds. */
export function percentiles(samplesNs: Float64Array | number[]): Percentiles {
  const sorted = Float64Array.from(samplesNs).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! / 1000;
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length / 1000;
  return { p50: at(0.5), p99: at(0.99), mean };
}

/** A child process pinned to one core, and the first JSON line it printed. */
export interface Started<T> {
  readonly info: T;
  readonly pid: number;
  stop(): Promise<void>;
}

/** CPU time (user + system) a process has used, in microseconds (from /proc; Linux only). */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / 100;
}

/** The median of some numbers. */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * The V8 heap sizes this process was started with (`npm run bench` sets the young generation as
 * `npm start` does): every server it starts, gateway and baselines alike, runs with the same.
 */
function heapFlags(): string[] {
  return process.execArgv.filter((a) => /^--max-(semi|old)-space-size=/.test(a));
}

/**
 * Starts `script` (a file next to this one) with `taskset -c <cpu>`, waits for its JSON ready line.
 * `nodeArgs` go to node before the script (e.g. --cpu-prof).
 */
export async function startPinned<T>(
  script: string,
  cpu: number,
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): Promise<Started<T>> {
  const args = ['-c', String(cpu), process.execPath, ...heapFlags(), ...nodeArgs, join(here, script)];
  const child: ChildProcess = spawn('taskset', args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const info = await new Promise<T>((resolveInfo, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolveInfo(JSON.parse(line) as T));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
  return {
    info,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

/** What autocannon measured. */
export interface LoadResult {
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly errors: number;
  readonly non2xx: number;
  readonly total: number;
}

/** Runs autocannon in its own process pinned to `cpu`, so load generation never steals the server's core. */
export function autocannon(options: {
  url: string;
  cpu: number;
  connections: number;
  durationS: number;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
}): Promise<LoadResult> {
  const bin = join(dirname(require.resolve('autocannon/package.json')), 'autocannon.js');
  const args = [
    '-c',
    String(options.cpu),
    process.execPath,
    bin,
    '-c',
    String(options.connections),
    '-d',
    String(options.durationS),
    '-j',
    '-m',
    options.method ?? 'POST',
  ];
  for (const [k, v] of Object.entries(options.headers ?? {})) args.push('-H', `${k}=${v}`);
  if (options.body !== undefined) args.push('-b', options.body);
  args.push(options.url);
  return new Promise((resolveResult, reject) => {
    const child = spawn('taskset', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      const r = JSON.parse(out) as {
        requests: { average: number; total: number };
        latency: { p50: number; p99: number };
        errors: number;
        non2xx: number;
      };
      resolveResult({
        rps: r.requests.average,
        p50Ms: r.latency.p50,
        p99Ms: r.latency.p99,
        errors: r.errors,
        non2xx: r.non2xx,
        total: r.requests.total,
      });
    });
  });
}

/** The core the measured servers are pinned to, and the core autocannon runs on. */
export const SERVER_CPU = 0;
export const LOAD_CPU = 1;

/** One measured load run plus the server's (and the database server's) CPU time per request during it. */
export interface Run extends LoadResult {
  readonly cpuUsPerReq: number;
  /** When the database server's process was given: its CPU time per request. */
  readonly dbCpuUsPerReq?: number;
}

/**
 * The local MySQL/MariaDB server's process id (the one listening on `port`, else `pidof mariadbd`,
 * then `mysqld`), or undefined when
 * none runs here (a remote database): where the database's share of a request is measured.
 */
export function localDatabasePid(port = 3306): number | undefined {
  // The server on the port the bench uses: other MariaDB servers may run beside it (a test
  // cluster), and `pidof -s` would name any one of them.
  const listening = spawnSync('ss', ['-Hltnp', `sport = :${port}`], { encoding: 'utf8' });
  const owner = /pid=(\d+)/.exec(listening.stdout ?? '');
  if (listening.status === 0 && owner) return Number(owner[1]);
  for (const name of ['mariadbd', 'mysqld']) {
    const found = spawnSync('pidof', ['-s', name], { encoding: 'utf8' });
    const pid = Number(found.stdout?.trim());
    if (found.status === 0 && pid > 0) return pid;
  }
  return undefined;
}

/**
 * A one-second warm-up, then a `durationS` run of `connections` against a server with process
 * `pid` (and, with `dbPid`, the database server's CPU per request too).
 */
export async function measure(
  t: { url: string; body: string; headers: Record<string, string>; pid: number; dbPid?: number },
  connections: number,
  durationS: number,
): Promise<Run> {
  await autocannon({ ...t, cpu: LOAD_CPU, connections, durationS: 1 });
  const before = cpuMicros(t.pid);
  const dbBefore = t.dbPid ? cpuMicros(t.dbPid) : 0;
  const r = await autocannon({ ...t, cpu: LOAD_CPU, connections, durationS });
  const total = Math.max(1, r.total);
  return {
    ...r,
    cpuUsPerReq: (cpuMicros(t.pid) - before) / total,
    ...(t.dbPid ? { dbCpuUsPerReq: (cpuMicros(t.dbPid) - dbBefore) / total } : {}),
  };
}

/** Prints a table with aligned columns, as Markdown (kept for `--write-docs`, bench-report.ts). */
export function printTable(title: string, header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((r) => r.map((c) => (typeof c === 'number' ? formatNumber(c) : c)))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => String(r[i] ?? '').length)));
  const line = (r: (string | number)[]) => `| ${r.map((c, i) => String(c).padEnd(widths[i]!)).join(' | ')} |`;
  const table = `### ${title}\n\n${line(cells[0]!)}\n| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |\n${cells.slice(1).map(line).join('\n')}\n`;
  recordTable(table);
  process.stdout.write(`\n${table}`);
}

function formatNumber(n: number): string {
  if (Number.isInteger(n) || n >= 100) return Math.round(n).toLocaleString('en-US');
  return n >= 10 ? n.toFixed(1) : n.toFixed(2);
}

/** The run of median req/s, with the median CPU per request of all runs. */
export function medianRun(r: Run[]): Run {
  const rps = median(r.map((x) => x.rps));
  return {
    ...(r.find((x) => x.rps === rps) ?? r[0]!),
    rps,
    cpuUsPerReq: median(r.map((x) => x.cpuUsPerReq)),
  };
}

/** A load run as a table row: label, req/s, p50, p99, server CPU per request, errors, then `extra`. */
export function runRow(label: string, r: Run, ...extra: string[]): (string | number)[] {
  return [label, r.rps, r.p50Ms, r.p99Ms, r.cpuUsPerReq, r.errors + r.non2xx, ...extra];
}

/** A copy of a config dir whose toolgate.yaml has each `[from, to]` replaced (each must be there). */
export function withPlatformSettings(configDir: string, changes: [RegExp | string, string][]): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-config-'));
  cpSync(configDir, dir, { recursive: true });
  const file = join(dir, 'toolgate.yaml');
  let yaml = readFileSync(file, 'utf8');
  for (const [from, to] of changes) {
    if (!(typeof from === 'string' ? yaml.includes(from) : from.test(yaml)))
      throw new Error(`toolgate.yaml does not say ${String(from)}`);
    yaml = yaml.replace(from, to);
  }
  writeFileSync(file, yaml);
  return dir;
}
