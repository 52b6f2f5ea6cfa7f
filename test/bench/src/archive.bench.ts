import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { createConnection } from 'mysql2/promise';
import {
  AuditWriter,
  CallProjector,
  CheckpointService,
  draftEvent,
  type AuditEventDraft,
} from '@toolgate/audit';
import { createGateway } from '../../../apps/gateway/src/bootstrap.js';
import { loadSettings } from '../../../apps/gateway/src/settings/settings.js';
import {
  autocannon,
  LOAD_CPU,
  median,
  printTable,
  SERVER_CPU,
  startPinned,
  withPlatformSettings,
} from './bench-support.js';
import { BenchToolsModule } from './bench-tools.js';
import { fixedRate, type Percentiles, type Target } from './fixedrate.bench.js';

/** The tenant whose old day is archived and purged (no tenant file: the default retention, 180 days). */
const TENANT = 'archived';
const DAY_MS = 86_400_000;
/** The day the events occurred: whole, UTC, and past the default retention. */
const DAYS_AGO = 200;
/** The steady L1 load beside the archive: well inside what one gateway core serves. */
const RATE = 300;
const SLICE_S = 5;
const BASELINE_SLICES = 4;

/**
 * `--only archive [--events n]` (issue 23): one UTC day of `n` audit events (default 1,000,000)
 * 200 days old, archived and then purged by `POST /v1/admin/retention/run` on the gateway that
 * serves a steady audited L1 load (300 req/s, open loop, fixed-rate-load.ts) at the same time. L1
 * latency is measured in 5 s slices: before the run, while it runs, and after it; the issue's
 * target is L1 p99 rising ≤ 20 %. MariaDB; the gateway on its own core, the load on the other.
 */
export async function archiveUnderLoad(
  env: Record<string, string>,
  count: number,
): Promise<Record<string, number>> {
  // Only the explicit run archives (the hourly job must not start while the load is measured), and
  // the day's range closes at the checkpoint signed after generating (today), not at midnight.
  const configDir = withPlatformSettings(env.TOOLGATE_CONFIG_DIR!, [
    [/archiveIntervalMs: \d+/, 'archiveIntervalMs: 0'],
    [/wholeDays: true/, 'wholeDays: false'],
  ]);
  const common = { ...env, TOOLGATE_CONFIG_DIR: configDir };
  const g0 = performance.now();
  await generateOldDay(common, count);
  const generateS = (performance.now() - g0) / 1000;

  const gateway = await startPinned<{ port: number; agentKey: string }>(
    'bench-server.js',
    SERVER_CPU,
    common,
  );
  const base = `http://127.0.0.1:${gateway.info.port}`;
  const l1: Target = {
    name: 'L1',
    url: `${base}/v1/agents/bench/tools/bench_record/invoke`,
    body: JSON.stringify({ input: { note: '客户 13812345678 来电，要求回访' } }),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${gateway.info.agentKey}` },
  };
  const before: Percentiles[] = [];
  /** Slices while the run went, with the time each began (ms after the run's request). */
  const during: { at: number; slice: Percentiles }[] = [];
  const after: Percentiles[] = [];
  let run: RunTotals;
  try {
    const settleS = await settleMariaDb(env.DATABASE_URL!);
    process.stdout.write(`archive: MariaDB settled after generating in ${settleS.toFixed(0)} s\n`);
    await autocannon({ ...l1, cpu: LOAD_CPU, connections: 16, durationS: 2 });
    for (let i = 0; i < BASELINE_SLICES; i++) before.push(await fixedRate(l1, RATE, { durationS: SLICE_S }));
    const t0 = performance.now();
    const running = retentionRun(base, env.TOOLGATE_ADMIN_KEY!);
    let finished = false;
    void running.finally(() => (finished = true)).catch(() => undefined);
    do {
      const at = performance.now() - t0;
      during.push({ at, slice: await fixedRate(l1, RATE, { durationS: SLICE_S, warmupS: 0 }) });
    } while (!finished);
    run = await running;
    for (let i = 0; i < BASELINE_SLICES; i++) after.push(await fixedRate(l1, RATE, { durationS: SLICE_S }));
  } finally {
    await gateway.stop();
  }

  const quiet = [...before, ...after];
  const p99Quiet = median(quiet.map((x) => x.p99Ms));
  // A slice belongs to the phase it began in (the purge starts when archiving ends).
  const archiving = during.filter((d) => d.at < run.archiveMs).map((d) => d.slice);
  const purging = during.filter((d) => d.at >= run.archiveMs).map((d) => d.slice);
  const all = during.map((d) => d.slice);
  const p99During = median(all.map((x) => x.p99Ms));
  const worstDuring = Math.max(...all.map((x) => x.p99Ms));
  const rise = p99During / p99Quiet - 1;
  const row = (label: string, r: Percentiles[]) =>
    r.length ? rowOf(label, r) : [label, 0, '—', '—', '—', '—'];
  const rowOf = (label: string, r: Percentiles[]) => [
    label,
    r.length,
    median(r.map((x) => x.rate)),
    `${fmt(median(r.map((x) => x.p50Ms)))} / ${fmt(median(r.map((x) => x.p95Ms)))} / ${fmt(median(r.map((x) => x.p99Ms)))}`,
    fmt(Math.max(...r.map((x) => x.p99Ms))),
    `${r.reduce((n, x) => n + x.failed, 0)} / ${r.reduce((n, x) => n + x.late, 0)}`,
  ];
  printTable(
    `Archive + purge under load on MariaDB: one UTC day of ${count.toLocaleString('en-US')} events (${DAYS_AGO} days old) archived and purged by POST /v1/admin/retention/run in ${run.seconds.toFixed(1)} s (archiving ${(run.archiveMs / 1000).toFixed(1)} s, purging ${(run.purgeMs / 1000).toFixed(1)} s; ${run.archivedEvents.toLocaleString('en-US')} archived in ${run.archivedFiles} file(s), ${run.purgedEvents.toLocaleString('en-US')} purged) while the same gateway serves audited L1 calls at ${RATE} req/s (open loop, ${SLICE_S} s slices; gateway on core ${SERVER_CPU}, load on core ${LOAD_CPU}); events generated in ${generateS.toFixed(0)} s`,
    [
      'L1 calls',
      'slices',
      'req/s served',
      'p50 / p95 / p99 ms (median of slices)',
      'worst slice p99 ms',
      'failed / late',
    ],
    [
      row('before the run', before),
      row('while archiving', archiving),
      row('while purging', purging),
      row('while archiving and purging (all)', all),
      row('after the run', after),
      [
        'p99 rise while archiving (median of slices ÷ median before and after)',
        '—',
        '—',
        `${(rise * 100).toFixed(0)} % ${rise <= 0.2 ? '✓' : 'NOT met'} (target ≤ 20 %)`,
        fmt(worstDuring),
        '—',
      ],
    ],
  );
  return {
    archiveRunS: run.seconds,
    archiveL1P99RisePct: rise * 100,
    archivePhaseS: run.archiveMs / 1000,
    purgePhaseS: run.purgeMs / 1000,
  };
}

/**
 * Waits (at most 3 min) until MariaDB has written the generated day out: few dirty pages left in
 * its buffer pool and no undo history to purge. Right after generating, its page flushing held
 * L1 p99 near a second in one run's "before" slices: a baseline that measured the server's
 * catching up, not the gateway. Answers the seconds waited.
 */
async function settleMariaDb(url: string): Promise<number> {
  const t0 = performance.now();
  const conn = await createConnection(url);
  try {
    for (;;) {
      const [rows] = (await conn.query(
        `SELECT (SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'INNODB_BUFFER_POOL_PAGES_DIRTY') AS dirty,
                (SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'INNODB_BUFFER_POOL_PAGES_TOTAL') AS total,
                (SELECT COUNT FROM information_schema.INNODB_METRICS WHERE NAME = 'trx_rseg_history_len') AS history`,
      )) as unknown as [{ dirty: string; total: string; history: number }[]];
      const { dirty, total, history } = rows[0]!;
      const seconds = (performance.now() - t0) / 1000;
      if ((Number(dirty) < Number(total) * 0.1 && Number(history) < 100) || seconds > 180) return seconds;
      await sleep(1000);
    }
  } finally {
    await conn.end();
  }
}

/** `count` events of one UTC day `DAYS_AGO` days back, in tenant TENANT, and a checkpoint over them. */
async function generateOldDay(env: Record<string, string>, count: number): Promise<void> {
  const settings = loadSettings({ ...env, TOOLGATE_LOG_LEVEL: 'warn', TOOLGATE_DEMO: 'off', PORT: '0' });
  const app = await createGateway(settings, { imports: [BenchToolsModule], quiet: true });
  try {
    const writer = app.get(AuditWriter);
    const dayStart = Math.floor(Date.now() / DAY_MS) * DAY_MS - DAYS_AGO * DAY_MS;
    process.stdout.write(
      `\narchive: generating ${count.toLocaleString('en-US')} events of one day in MariaDB…\n`,
    );
    let next = 0;
    const batch = (): AuditEventDraft[] => {
      const drafts: AuditEventDraft[] = [];
      for (; drafts.length < 1000 && next < count; next++) drafts.push(oldEvent(next, count, dayStart));
      return drafts;
    };
    const appender = async () => {
      for (let drafts = batch(); drafts.length; drafts = batch()) await writer.append(drafts, 120_000);
    };
    await Promise.all(Array.from({ length: 8 }, appender));
    await app.get(CheckpointService).run([TENANT]);
    // As a running gateway keeps it: the call projection caught up before the day is purged.
    const projector = app.get(CallProjector);
    while ((await projector.catchUp()) > 0);
  } finally {
    await app.close();
  }
}

/** An L1 call's `started` or `finished` event, spread evenly over the day. */
function oldEvent(i: number, count: number, dayStart: number): AuditEventDraft {
  const call = Math.floor(i / 2);
  const common = {
    tenantId: TENANT,
    callId: `019c${call.toString(16).padStart(8, '0')}-0000-7000-8000-000000000000`,
    tool: 'restart_service',
    agentType: 'ops_assistant',
    riskLevel: 'L1',
    implementation: 'http',
    actor: { type: 'api_key' as const, id: '019a0000-0000-7000-8000-000000000001' },
    occurredAt: new Date(dayStart + Math.floor((i / count) * (DAY_MS - 1))),
    instanceId: 'bench',
  };
  return i % 2 === 0
    ? draftEvent({
        ...common,
        event: 'started',
        input: { service: `svc-${call % 500}`, reason: 'scheduled maintenance window' },
        details: { face: 'rest' },
      })
    : draftEvent({ ...common, event: 'finished', status: 'ok', code: null, durationMs: 20, details: {} });
}

/** `POST /v1/admin/retention/run?tenantId=…` without a client-side timeout; its answer's totals. */
function retentionRun(base: string, adminKey: string): Promise<RunTotals> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}/v1/admin/retention/run?tenantId=${TENANT}`,
      { method: 'POST', headers: { authorization: `Bearer ${adminKey}` } },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`retention run: ${res.statusCode} ${body}`));
          const views = (JSON.parse(body) as { data: RetentionAnswer[] }).data;
          const r = views.find((x) => x.tenantId === TENANT)?.lastRun;
          if (!r || r.problem || r.purgeSkipped)
            return reject(
              new Error(`retention run: ${r?.problem ?? r?.purgeSkipped ?? 'no run for the tenant'}`),
            );
          resolve({
            seconds: (performance.now() - t0) / 1000,
            archivedEvents: r.archivedEvents,
            purgedEvents: r.purgedEvents,
            archivedFiles: r.archivedFiles,
            archiveMs: r.archiveMs,
            purgeMs: r.purgeMs,
          });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

interface RunTotals {
  readonly seconds: number;
  readonly archivedEvents: number;
  readonly purgedEvents: number;
  readonly archivedFiles: number;
  readonly archiveMs: number;
  readonly purgeMs: number;
}

interface RetentionAnswer {
  readonly tenantId: string;
  readonly lastRun: {
    readonly archivedEvents: number;
    readonly purgedEvents: number;
    readonly archivedFiles: number;
    readonly archiveMs: number;
    readonly purgeMs: number;
    readonly purgeSkipped?: string;
    readonly problem?: string;
  } | null;
}

function fmt(ms: number): string {
  return ms < 10 ? ms.toFixed(2) : ms.toFixed(1);
}
