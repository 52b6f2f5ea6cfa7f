import {
  questionOf,
  startFakeOpenAI,
  type FakeChatRequest,
  type FakeReply,
  type FakeTiming,
} from '../../support/fake-openai.js';
import { cpuMicros, median, percentiles, printTable, SERVER_CPU, startPinned } from './bench-support.js';
import { createConnection } from 'mysql2/promise';
import { closedLoop, type LoopResult } from './runs-load.js';

/** Untimed runs before the timed ones, and the load's concurrency. */
const WARMUP = 30;
const CONCURRENCY = 16;
const ROUNDS = 3;
const STEPS = 3;
/** Targets of issue 10. */
const TARGET = { p50Ms: 3, p99Ms: 15, ratio: 0.5 };

/** The scripted model: turns 1 and 2 call the L0 no-op tool, turn 3 answers in text. */
function scriptedTurn(body: FakeChatRequest): FakeReply {
  const results = (body.messages ?? []).filter((m) => m.role === 'tool').length;
  return results < STEPS - 1
    ? { toolCalls: [{ name: 'bench_noop', arguments: '{}' }], usage: { inputTokens: 40, outputTokens: 8 } }
    : { text: 'done', usage: { inputTokens: 60, outputTokens: 2 } };
}

/** One run timed by its client: when the request went out and its answer was read (hrtime ns). */
interface TimedRun {
  readonly tag: string;
  readonly startNs: bigint;
  readonly endNs: bigint;
}

/**
 * Where a run's wall time went. The scripted model server stamps when each model request arrived
 * and when its answer was written; everything else of the run's wall time, as its client saw it,
 * is the platform's (or the floor's) own time. Step k is charged the time from the end of the
 * previous model answer (the run request, for step 1) to the arrival of its model request; the
 * last step also the time from its answer to the run's JSON reaching the client. So every
 * microsecond of a run is either model-server time or counted in exactly one step, and what the
 * client library does (serialising the request, parsing the stream) counts as overhead.
 */
function splitRun(run: TimedRun, turns: FakeTiming[] | undefined) {
  if (turns?.length !== STEPS) throw new Error(`${run.tag}: ${turns?.length ?? 0} model turns, not ${STEPS}`);
  const t = [...turns].sort((a, b) => Number(a.receivedNs - b.receivedNs));
  const gaps = [t[0]!.receivedNs - run.startNs];
  for (let i = 1; i < STEPS; i++) gaps.push(t[i]!.receivedNs - t[i - 1]!.answeredNs);
  const end = run.endNs - t[STEPS - 1]!.answeredNs;
  const steps = gaps.map((g, i) => Number(i === STEPS - 1 ? g + end : g));
  return {
    steps,
    start: Number(gaps[0]),
    between: gaps.slice(1, -1).map(Number),
    lastStep: Number(gaps[STEPS - 1]),
    end: Number(end),
    model: t.map((x) => Number(x.answeredNs - x.receivedNs)),
  };
}

type Split = ReturnType<typeof splitRun>;

const ms = (ns: number[]) => {
  const p = percentiles(ns);
  return { p50: p.p50 / 1000, p99: p.p99 / 1000, mean: p.mean / 1000 };
};
/**
 * What one round trip and one durable commit cost on this MariaDB right now (a step's floor: a
 * turn is committed before its calls run, a call's outcome as it comes), measured beside the runs.
 */
async function databaseRoundTrips(url: string): Promise<{ select: number[]; commit: number[] }> {
  const conn = await createConnection(url);
  try {
    await conn.query('CREATE TABLE bench_probe (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(32))');
    const time = async (f: (i: number) => Promise<unknown>) => {
      const ns: number[] = [];
      for (let i = 0; i < 300; i++) {
        const t0 = process.hrtime.bigint();
        await f(i);
        ns.push(Number(process.hrtime.bigint() - t0));
      }
      return ns;
    };
    const select = await time(() => conn.query('SELECT 1'));
    const commit = await time((i) => conn.query('INSERT INTO bench_probe (v) VALUES (?)', [`v${i}`]));
    await conn.query('DROP TABLE bench_probe');
    return { select, commit };
  } finally {
    await conn.end();
  }
}

const verdict = (ok: boolean) => (ok ? 'pass' : 'MISS');

/**
 * Agent runs on MariaDB (issue 10): a zero-latency scripted model over loopback HTTP (the real
 * `openai` client of libs/models talks to it, streamed), an L0 no-op tool, runs started over REST
 * on a gateway pinned to one core. (1) Platform overhead per step, model call excluded, from
 * sequential runs. (2) Runs per second at c=16, 3 steps each, beside the floor: the same loop
 * written by hand against the `openai` client, no persistence, in a process pinned to the same
 * core, against the same model server. Alternating rounds, medians.
 */
export async function agentRuns(
  env: Record<string, string>,
  durationS: number,
  timedRuns: number,
): Promise<void> {
  const profileDir = process.env.TOOLGATE_BENCH_CPU_PROF;
  const turns = new Map<string, FakeTiming[]>();
  const model = await startFakeOpenAI(scriptedTurn, {
    record: false,
    onAnswered: (t) => {
      const q = questionOf(t.body);
      if (q.startsWith('timed ')) turns.set(q, [...(turns.get(q) ?? []), t]);
    },
  });
  const gw = await startPinned<{ port: number; agentKey: string }>(
    'bench-server.js',
    SERVER_CPU,
    {
      ...env,
      TOOLGATE_MODEL_BASE_URL: model.url,
      TOOLGATE_MODEL: 'default/bench-model',
    },
    profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  );
  const url = `http://127.0.0.1:${gw.info.port}/v1/agents/runner/runs`;
  const headers = { authorization: `Bearer ${gw.info.agentKey}`, 'content-type': 'application/json' };
  const runOverRest = async (question: string) => {
    const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ input: question }) });
    const body = (await res.json()) as { data?: { status?: string; steps?: unknown[] } };
    if (res.status !== 200 || body.data?.status !== 'completed' || body.data.steps?.length !== STEPS)
      throw new Error(`run ${question}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  };
  const floorEnv = { MODEL_URL: model.url };

  try {
    // (1) Sequential runs, each split into model-server time and per-step overhead.
    for (let i = 0; i < WARMUP; i++) await runOverRest(`warm ${i}`);
    const gateway: Split[] = [];
    for (let i = 0; i < timedRuns; i++) {
      const tag = `timed gw ${i}`;
      const startNs = process.hrtime.bigint();
      await runOverRest(tag);
      gateway.push(splitRun({ tag, startNs, endNs: process.hrtime.bigint() }, turns.get(tag)));
    }
    // The floor's runs, timed by the floor process: hrtime is the system's monotonic clock, shared.
    const floorRuns = await startPinned<{ timed: { tag: string; startNs: string; endNs: string }[] }>(
      'runs-floor.js',
      SERVER_CPU,
      { ...floorEnv, RUNS: String(timedRuns + WARMUP), CONCURRENCY: '1', TAG: 'timed floor' },
    );
    await floorRuns.stop();
    const floor = floorRuns.info.timed
      .slice(WARMUP)
      .map((r) =>
        splitRun({ tag: r.tag, startNs: BigInt(r.startNs), endNs: BigInt(r.endNs) }, turns.get(r.tag)),
      );
    turns.clear();
    const db = await databaseRoundTrips(env.DATABASE_URL!);

    const perStep = ms(gateway.flatMap((s) => s.steps));
    const row = (label: string, ns: number[], target = '', pass = '') => {
      const p = ms(ns);
      return [label, p.p50, p.p99, p.mean, target, pass];
    };
    printTable(
      `Agent runs on MariaDB: platform overhead per step, model call excluded (${timedRuns} sequential runs × ${STEPS} steps, ms)`,
      ['what', 'p50 ms', 'p99 ms', 'mean ms', 'target', 'result'],
      [
        row(
          'Toolgate: overhead per step (a run over REST minus model-server time, split by step)',
          gateway.flatMap((s) => s.steps),
          `p50 ≤ ${TARGET.p50Ms}, p99 ≤ ${TARGET.p99Ms}`,
          `${verdict(perStep.p50 <= TARGET.p50Ms)} / ${verdict(perStep.p99 <= TARGET.p99Ms)}`,
        ),
        row(
          '  step 1: POST /runs → first model request (run stored, run_started audited)',
          gateway.map((s) => s.start),
        ),
        row(
          '  step 2: answer → next request (turn stored, governed L0 call, result stored)',
          gateway.flatMap((s) => s.between),
        ),
        row(
          '  step 3: same, up to its model request',
          gateway.map((s) => s.lastStep),
        ),
        row(
          '  step 3: last answer → run JSON at the client (run finished, answer built from the drive)',
          gateway.map((s) => s.end),
        ),
        row(
          'floor: hand-written loop on the openai client, no persistence, per step',
          floor.flatMap((s) => s.steps),
        ),
        row(
          'model server: request in → answer written (excluded above)',
          gateway.flatMap((s) => s.model),
        ),
        row('MariaDB here, for scale: one SELECT 1 round trip', db.select),
        row('MariaDB here, for scale: one autocommit INSERT (a durable commit)', db.commit),
      ],
    );

    // (2) Throughput at c=16, durable runs and the floor in alternating rounds.
    const durable: (LoopResult & { cpuUsPerRun: number })[] = [];
    const floors: (LoopResult & { cpuUsPerRun: number })[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const before = cpuMicros(gw.pid);
      const r = await closedLoop(CONCURRENCY, durationS, (n) => runOverRest(`load ${round} ${n}`));
      durable.push({ ...r, cpuUsPerRun: (cpuMicros(gw.pid) - before) / Math.max(1, r.completed) });
      const f = await startPinned<LoopResult & { cpuUsPerRun: number }>('runs-floor.js', SERVER_CPU, {
        ...floorEnv,
        CONCURRENCY: String(CONCURRENCY),
        DURATION_S: String(durationS),
        TAG: `floor ${round}`,
      });
      await f.stop();
      floors.push(f.info);
    }
    const summary = (rs: (LoopResult & { cpuUsPerRun: number })[]) => {
      const lat = ms(rs.flatMap((r) => r.latenciesMs.map((x) => x * 1e6)));
      return {
        rps: median(rs.map((r) => r.runsPerS)),
        p50: lat.p50,
        p99: lat.p99,
        cpu: median(rs.map((r) => r.cpuUsPerRun)) / 1000,
        errors: rs.reduce((n, r) => n + r.errors, 0),
        firstError: rs.find((r) => r.firstError)?.firstError,
      };
    };
    const d = summary(durable);
    const f = summary(floors);
    const ratio = d.rps / f.rps;
    printTable(
      `Agent runs on MariaDB: runs/s at c=${CONCURRENCY}, ${STEPS} steps each, median of ${ROUNDS} alternating ${durationS} s runs`,
      ['loop', 'runs/s', 'p50 ms/run', 'p99 ms/run', 'CPU ms/run', 'errors', 'durable ÷ floor'],
      [
        [
          'Toolgate durable runs over REST (stored, leased, evented, audited)',
          d.rps,
          d.p50,
          d.p99,
          d.cpu,
          d.errors,
          '—',
        ],
        [
          'floor: the same loop on the openai client, no persistence',
          f.rps,
          f.p50,
          f.p99,
          f.cpu,
          f.errors,
          `${ratio.toFixed(2)}× (target ≥ ${TARGET.ratio}×: ${verdict(ratio >= TARGET.ratio)})`,
        ],
      ],
    );
    if (d.firstError ?? f.firstError)
      process.stdout.write(`\nfirst error: ${d.firstError ?? f.firstError}\n`);
  } finally {
    await gw.stop();
    await model.close();
  }
}
