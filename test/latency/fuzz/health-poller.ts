import { Agent, get } from 'node:http';
import { loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { monitorEventLoopDelay, PerformanceObserver, type IntervalHistogram } from 'node:perf_hooks';

/** One `GET /healthz` of the poller. */
export interface HealthSample {
  readonly atMs: number;
  readonly ms: number;
  readonly status: number;
  /**
   * CPU time this process used while the sample waited (all its threads, GC included). Far below
   * `ms` means the process was not running: the machine was busy elsewhere.
   */
  readonly cpuMs: number;
  /** What the fuzzer had in flight while this sample was waiting (for slow samples). */
  readonly inFlight: readonly string[];
}

/** What the poller saw, and what the process's event loop and garbage collector did meanwhile. */
export interface HealthReport {
  readonly count: number;
  readonly failures: readonly string[];
  readonly maxMs: number;
  /**
   * The slowest poll counted as the CPU time this process used while it waited, when that is
   * less: a poll that waited for a core another process held is the machine's, not the gateway's.
   */
  readonly maxOnCpuMs: number;
  readonly p99Ms: number;
  readonly p50Ms: number;
  readonly slowest: readonly HealthSample[];
  readonly loop: { readonly maxMs: number; readonly p99Ms: number; readonly meanMs: number };
  readonly gc: { readonly count: number; readonly maxMs: number; readonly over20Ms: number };
  /** Slow samples (over the bound) during which the process used less than half the wall time in CPU. */
  readonly starved: number;
  readonly heapMb: { readonly start: number; readonly max: number; readonly end: number };
  /** The heap a full collection cannot free, before and after the run: what the run left behind. */
  readonly retainedMb: { readonly start: number; readonly end: number };
  readonly loadAverage: { readonly start: number; readonly end: number };
}

/** Heap in use after a full collection (forced, outside the measured run), in MB. */
function retainedHeapMb(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed / (1024 * 1024);
}

/** See {@link HealthPoller}'s `timeoutMs`. */
export const HEALTH_POLL_TIMEOUT_MS = 15_000;

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * Polls `GET /healthz` every `everyMs` on a connection of its own while the fuzzer runs, and
 * measures the event-loop delay of this process (the gateway runs in it) and GC pauses, so that a
 * slow answer can be told apart: the gateway's handler, a blocked loop, or the collector.
 */
export class HealthPoller {
  private readonly samples: HealthSample[] = [];
  private readonly failures: string[] = [];
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private readonly loop: IntervalHistogram = monitorEventLoopDelay({ resolution: 5 });
  private readonly gcPauses: number[] = [];
  private readonly gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) this.gcPauses.push(entry.duration);
  });
  private running = false;
  private readonly heap = { start: 0, max: 0 };
  private readonly retained = { start: 0, end: 0 };
  private readonly load = { start: loadavg()[0]! };
  private done: Promise<void> = Promise.resolve();
  private readonly started = performance.now();

  constructor(
    private readonly url: string,
    private readonly inFlight: () => readonly string[],
    private readonly boundMs: number,
    private readonly everyMs = 20,
    /**
     * A hang guard, not a latency bound: a poll unanswered this long counts as a failure. On a
     * shared 2-core machine at load 17, a process waited 2 s for a core (issue 27).
     */
    readonly timeoutMs = HEALTH_POLL_TIMEOUT_MS,
  ) {}

  /** Starts polling, after one untimed request that opens the connection. */
  async start(): Promise<void> {
    this.retained.start = retainedHeapMb();
    await this.poll();
    this.heap.start = process.memoryUsage().heapUsed;
    this.running = true;
    this.loop.enable();
    this.gcObserver.observe({ entryTypes: ['gc'] });
    this.done = this.run();
  }

  async stop(): Promise<HealthReport> {
    this.running = false;
    await this.done;
    this.loop.disable();
    this.gcObserver.disconnect();
    this.agent.destroy();
    const report = this.report();
    this.retained.end = retainedHeapMb();
    return { ...report, retainedMb: { ...this.retained } };
  }

  private async run(): Promise<void> {
    while (this.running) {
      const before = performance.now();
      const cpuBefore = process.cpuUsage();
      const busy = new Set(this.inFlight());
      try {
        const status = await this.poll();
        const ms = performance.now() - before;
        const cpu = process.cpuUsage(cpuBefore);
        for (const r of this.inFlight()) busy.add(r);
        this.samples.push({
          atMs: before - this.started,
          ms,
          status,
          cpuMs: (cpu.user + cpu.system) / 1000,
          inFlight: ms >= 20 ? [...busy] : [],
        });
        if (this.samples.length % 50 === 0)
          this.heap.max = Math.max(this.heap.max, process.memoryUsage().heapUsed);
        if (status !== 200) this.failures.push(`/healthz answered ${status}`);
      } catch (err) {
        this.failures.push(`/healthz: ${(err as Error).message}`);
      }
      const wait = this.everyMs - (performance.now() - before);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  }

  private poll(): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = get(`${this.url}/healthz`, { agent: this.agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      req.setTimeout(this.timeoutMs, () => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
      req.on('error', reject);
    });
  }

  private report(): Omit<HealthReport, 'retainedMb'> {
    const times = this.samples.map((s) => s.ms).sort((a, b) => a - b);
    const ns = 1e6;
    const mb = 1024 * 1024;
    return {
      count: this.samples.length,
      failures: this.failures,
      maxMs: times[times.length - 1] ?? 0,
      maxOnCpuMs: Math.max(0, ...this.samples.map((s) => Math.min(s.ms, s.cpuMs))),
      p99Ms: percentile(times, 99),
      p50Ms: percentile(times, 50),
      slowest: [...this.samples].sort((a, b) => b.ms - a.ms).slice(0, 5),
      loop: {
        maxMs: this.loop.max / ns,
        p99Ms: this.loop.percentile(99) / ns,
        meanMs: this.loop.mean / ns,
      },
      gc: {
        count: this.gcPauses.length,
        maxMs: Math.max(0, ...this.gcPauses),
        over20Ms: this.gcPauses.filter((d) => d > 20).length,
      },
      starved: this.samples.filter((s) => s.ms >= this.boundMs && s.cpuMs < s.ms / 2).length,
      heapMb: {
        start: this.heap.start / mb,
        max: Math.max(this.heap.max, this.heap.start) / mb,
        end: process.memoryUsage().heapUsed / mb,
      },
      loadAverage: { start: this.load.start, end: loadavg()[0]! },
    };
  }
}
