import { Agent, request } from 'node:http';

/**
 * An open-loop load at a fixed rate, run as its own process (pinned to the load core by
 * fixedrate.bench.ts): request i is due at start + i / rate, sent when due whatever the earlier
 * ones are doing, and its latency is counted from when it was due, not from when a connection
 * was free — so a server that stalls shows the stall in every request that waited behind it (no
 * coordinated omission). Why not autocannon's rate mode: its clients send their whole quota of
 * each second back to back at the start of the second and then wait (lib/httpClient.js,
 * `reqsMadeThisSecond`), so "2,000 req/s" is a burst at full concurrency, once a second, and its
 * correction records the rest with a 1 ms interval (`Math.ceil(1 / rate)`). That is latency at
 * saturation again, not at a steady rate.
 *
 * A server that cannot keep the rate falls behind without bound; the load stops waiting
 * `GRACE_MS` after the last request was due, and a request still unanswered then counts as
 * `late`, with the latency it had reached by then (a lower bound, so p99 is not flattered).
 *
 * Input: one JSON argument {url, body, headers, rate, durationS, warmupS, sockets}. Output: one
 * JSON line {sent, ok, failed, late, rate, p50Ms, p95Ms, p99Ms, maxMs} over the requests due after
 * the warm-up.
 */
const GRACE_MS = 3000;

interface LoadSpec {
  readonly url: string;
  readonly body: string;
  readonly headers: Record<string, string>;
  readonly rate: number;
  readonly durationS: number;
  readonly warmupS: number;
  /** Keep-alive connections at most (requests beyond them queue, and their wait counts). */
  readonly sockets: number;
}

function run(spec: LoadSpec): Promise<Record<string, number>> {
  const url = new URL(spec.url);
  const agent = new Agent({ keepAlive: true, maxSockets: spec.sockets });
  const body = Buffer.from(spec.body);
  const headers = { ...spec.headers, 'content-length': String(body.length) };
  const total = Math.round(spec.rate * (spec.warmupS + spec.durationS));
  const measuredFrom = Math.round(spec.rate * spec.warmupS);
  const latencies: number[] = [];
  let sent = 0;
  let settled = 0;
  let failed = 0;
  let late = 0;
  let finished = false;
  const start = performance.now() + 50;
  const intervalMs = 1000 / spec.rate;
  return new Promise((resolve) => {
    const done = (): void => {
      if (finished) return;
      finished = true;
      agent.destroy();
      const sorted = Float64Array.from(latencies).sort();
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
      const measuredS = spec.durationS;
      resolve({
        sent: total - measuredFrom,
        ok: sorted.length - late,
        failed,
        late,
        rate: (sorted.length - late) / measuredS,
        p50Ms: at(0.5),
        p95Ms: at(0.95),
        p99Ms: at(0.99),
        maxMs: sorted[sorted.length - 1] ?? NaN,
      });
    };
    const pending = new Map<number, number>();
    const send = (i: number): void => {
      const due = start + i * intervalMs;
      if (i >= measuredFrom) pending.set(i, due);
      const req = request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers, agent },
        (res) => {
          res.on('data', () => undefined);
          res.on('end', () => {
            if (finished) return;
            pending.delete(i);
            const ok = res.statusCode !== undefined && res.statusCode < 300;
            if (i >= measuredFrom) {
              if (ok) latencies.push(performance.now() - due);
              else failed++;
            }
            if (++settled === total) done();
          });
        },
      );
      req.on('error', () => {
        if (finished) return;
        pending.delete(i);
        if (i >= measuredFrom) failed++;
        if (++settled === total) done();
      });
      req.end(body);
    };
    // Every millisecond (or as soon as the timer fires), send what is due by now.
    const tick = (): void => {
      const now = performance.now();
      while (sent < total && start + sent * intervalMs <= now) send(sent++);
      if (sent < total) setTimeout(tick, Math.max(0, Math.min(1, start + sent * intervalMs - now)));
      else setTimeout(giveUp, GRACE_MS);
    };
    const giveUp = (): void => {
      if (finished) return;
      const now = performance.now();
      for (const due of pending.values()) latencies.push(now - due);
      late = pending.size;
      done();
    };
    setTimeout(tick, 50);
  });
}

run(JSON.parse(process.argv[2]!) as LoadSpec).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  },
  (err: unknown) => {
    process.stderr.write(`fixed-rate load failed: ${String(err)}\n`);
    process.exit(1);
  },
);
