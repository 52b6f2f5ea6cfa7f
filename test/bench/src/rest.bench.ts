import {
  LOAD_CPU,
  measure,
  medianRun,
  printTable,
  SERVER_CPU,
  startPinned,
  type Run,
  runRow,
} from './bench-support.js';

const ROUNDS = 3;

interface Target {
  readonly name: string;
  readonly url: string;
  readonly body: string;
  readonly headers: Record<string, string>;
  readonly pid: number;
}

/**
 * REST throughput of a governed L0 no-op invoke against (a) a bare Nest route in the same server
 * returning the same JSON and (b) a plain Fastify route doing what a team would write by hand.
 * Both servers are pinned to core 0 and idle unless loaded; autocannon runs on core 1. The three
 * targets are measured in alternating rounds and the median is reported, because this machine's
 * available CPU drifts from minute to minute.
 */
export async function restThroughput(
  env: Record<string, string>,
  durationS: number,
): Promise<{ governedOverNest: number; governedOverFastify: number }> {
  const body = JSON.stringify({ input: {} });
  const gateway = await startPinned<{ port: number; agentKey: string; quietKey: string }>(
    'bench-server.js',
    SERVER_CPU,
    env,
  );
  const plain = await startPinned<{ port: number }>('plain-fastify-server.js', SERVER_CPU, {});
  const json = { 'content-type': 'application/json' };
  const base = `http://127.0.0.1:${gateway.info.port}`;
  const targets: Target[] = [
    // The pipeline's own cost (issues 12 and 25 compare it with bare routes): a tenant whose L0
    // calls are not recorded. The default, with one `accessed` event per L0 call, is its own row.
    {
      name: 'governed',
      url: `${base}/v1/agents/bench/tools/bench_noop/invoke`,
      body,
      headers: { ...json, authorization: `Bearer ${gateway.info.quietKey}` },
      pid: gateway.pid,
    },
    {
      name: 'recorded',
      url: `${base}/v1/agents/bench/tools/bench_noop/invoke`,
      body,
      headers: { ...json, authorization: `Bearer ${gateway.info.agentKey}` },
      pid: gateway.pid,
    },
    { name: 'bare', url: `${base}/bench/bare`, body, headers: json, pid: gateway.pid },
    { name: 'plain', url: `http://127.0.0.1:${plain.info.port}/invoke`, body, headers: json, pid: plain.pid },
  ];
  const results: Record<string, Run> = {};
  try {
    for (const c of [32, 64]) {
      const runs: Record<string, Run[]> = {};
      for (let round = 0; round < ROUNDS; round++) {
        for (const t of targets) (runs[t.name] ??= []).push(await measure(t, c, durationS));
      }
      for (const t of targets) results[`${t.name} c${c}`] = medianRun(runs[t.name]!);
    }
  } finally {
    await gateway.stop();
    await plain.stop();
  }
  const rows = [32, 64].flatMap((c) => {
    const g = results[`governed c${c}`]!;
    const r = results[`recorded c${c}`]!;
    const b = results[`bare c${c}`]!;
    const p = results[`plain c${c}`]!;
    return [
      [
        `c=${c}`,
        ...runRow('governed invoke (Toolgate, L0 no-op; tenant with audit.l0Access: false)', g, '—'),
      ],
      [
        `c=${c}`,
        ...runRow(
          'governed invoke, L0 recorded as an accessed event (the default; SQLite in the process)',
          r,
          `${(r.rps / g.rps).toFixed(2)}× of not recorded`,
        ),
      ],
      [
        `c=${c}`,
        ...runRow(
          'bare Nest route, same server, same JSON',
          b,
          `${(g.rps / b.rps).toFixed(2)}× (target ≥ 1.0×)`,
        ),
      ],
      [
        `c=${c}`,
        ...runRow('plain Fastify + Zod + timeout race', p, `${(g.rps / p.rps).toFixed(2)}× (target ≥ 0.8×)`),
      ],
    ];
  });
  printTable(
    `REST throughput: median of ${ROUNDS} alternating ${durationS} s runs (servers on core ${SERVER_CPU}, autocannon on core ${LOAD_CPU})`,
    ['load', 'target', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'errors', 'governed req/s ÷ target'],
    rows,
  );
  const g64 = results['governed c64']!.rps;
  return {
    governedOverNest: g64 / results['bare c64']!.rps,
    governedOverFastify: g64 / results['plain c64']!.rps,
  };
}

/**
 * The HTTP adapter choice, measured: the smallest Nest app with one route on Express and on
 * Fastify, same core, alternating rounds, medians.
 */
export async function adapterChoice(durationS: number): Promise<Record<string, Run>> {
  const body = JSON.stringify({ input: {} });
  const headers = { 'content-type': 'application/json' };
  const servers = {
    express: await startPinned<{ port: number }>('nest-adapter-server.js', SERVER_CPU, {
      BENCH_ADAPTER: 'express',
    }),
    fastify: await startPinned<{ port: number }>('nest-adapter-server.js', SERVER_CPU, {
      BENCH_ADAPTER: 'fastify',
    }),
  };
  const runs: Record<string, Run[]> = { express: [], fastify: [] };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, s] of Object.entries(servers)) {
        const url = `http://127.0.0.1:${s.info.port}/invoke`;
        runs[name]!.push(await measure({ url, body, headers, pid: s.pid }, 64, durationS));
      }
    }
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()));
  }
  const results: Record<string, Run> = {};
  for (const [name, r] of Object.entries(runs)) results[name] = medianRun(r);
  printTable(
    `HTTP adapter: the smallest Nest app, one POST route, c=64, median of ${ROUNDS} alternating ${durationS} s runs`,
    ['adapter', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'errors'],
    [
      runRow('@nestjs/platform-express (Express 5)', results.express!),
      runRow('@nestjs/platform-fastify (Fastify 5)', results.fastify!),
    ],
  );
  return results;
}
