import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * What the event loop of this process went through while some work ran, measured two ways: the
 * wall-clock figures (what a client would see) and the on-CPU ones (the part of each stall this
 * process spent running). On a shared machine a process can wait for a core for tens of
 * milliseconds whatever it runs; that wait is not the code's, and only the on-CPU figures are
 * compared by specs. The wall-clock ones are printed, and reported by `npm run bench -- --only latency`.
 */
export interface Stalls {
  /** Event-loop delay percentiles and maximum (`monitorEventLoopDelay`, 1 ms resolution), wall clock. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** The longest gap between two ticks of a 1 ms timer, counting only CPU time this process used in it. */
  readonly maxOnCpuMs: number;
  /** `/healthz` polls made meanwhile, the slowest (wall clock) and the slowest counted on-CPU. */
  readonly polls: number;
  readonly slowestPollMs: number;
  readonly slowestPollOnCpuMs: number;
  /** CPU time this process used over the whole measurement (the work, the gateway, the poller). */
  readonly cpuMs: number;
}

/** CPU milliseconds this process (every thread) used since `since`. */
function cpuMsSince(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/**
 * Ticks every millisecond and keeps the longest gap between two ticks, counted as the CPU time
 * this process used in it when that is less: a gap the process spent off the CPU (another
 * process held the core) is the machine's, one it spent running is its own. CPU time counts every
 * thread of the process (GC helpers included), so this never under-counts the loop's own work.
 */
export class OnCpuStallMeter {
  private timer?: NodeJS.Timeout;
  private lastAt = 0;
  private lastCpu = process.cpuUsage();
  maxOnCpuMs = 0;

  start(): void {
    this.lastAt = performance.now();
    this.lastCpu = process.cpuUsage();
    this.timer = setInterval(() => this.tick(), 1);
  }

  stop(): number {
    clearInterval(this.timer);
    this.tick();
    return this.maxOnCpuMs;
  }

  private tick(): void {
    const now = performance.now();
    const cpuMs = cpuMsSince(this.lastCpu);
    this.maxOnCpuMs = Math.max(this.maxOnCpuMs, Math.min(now - this.lastAt, cpuMs));
    this.lastAt = now;
    this.lastCpu = process.cpuUsage();
  }
}

/**
 * Runs `work` while polling `${url}/healthz` every ~10 ms (each must answer 200) and measuring the
 * event loop of this process, where the gateway under test runs.
 */
export async function measureStalls(
  url: string,
  work: () => Promise<void>,
  pollEveryMs = 10,
): Promise<Stalls> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const meter = new OnCpuStallMeter();
  const cpuAtStart = process.cpuUsage();
  delay.enable();
  meter.start();
  let finished = false;
  const done = work().finally(() => (finished = true));
  let polls = 0;
  let slowestPollMs = 0;
  let slowestPollOnCpuMs = 0;
  while (!finished) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const res = await fetch(`${url}/healthz`);
    await res.text();
    if (res.status !== 200) throw new Error(`/healthz answered ${res.status} under load`);
    const ms = performance.now() - started;
    polls++;
    slowestPollMs = Math.max(slowestPollMs, ms);
    slowestPollOnCpuMs = Math.max(slowestPollOnCpuMs, Math.min(ms, cpuMsSince(cpu)));
    await new Promise((r) => setTimeout(r, pollEveryMs));
  }
  await done;
  const maxOnCpuMs = meter.stop();
  delay.disable();
  return {
    p50Ms: delay.percentile(50) / 1e6,
    p99Ms: delay.percentile(99) / 1e6,
    maxMs: delay.max / 1e6,
    maxOnCpuMs,
    polls,
    slowestPollMs,
    slowestPollOnCpuMs,
    cpuMs: cpuMsSince(cpuAtStart),
  };
}

/** One line for a log: the wall-clock and on-CPU figures of `s`. */
export function describeStalls(s: Stalls): string {
  return (
    `event-loop delay p50 ${s.p50Ms.toFixed(1)} ms, p99 ${s.p99Ms.toFixed(1)} ms, max ${s.maxMs.toFixed(1)} ms ` +
    `(on-CPU ${s.maxOnCpuMs.toFixed(1)} ms); ${s.polls} /healthz polls, slowest ${s.slowestPollMs.toFixed(1)} ms ` +
    `(on-CPU ${s.slowestPollOnCpuMs.toFixed(1)} ms)`
  );
}
