import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditWriter, CheckpointService, draftEvent, type AuditEventDraft } from '@toolgate/audit';
import { createGateway } from '../../../apps/gateway/src/bootstrap.js';
import { loadSettings } from '../../../apps/gateway/src/settings/settings.js';
import { BenchToolsModule } from './bench-tools.js';
import { runLoad } from '../../support/gateway-process.js';
import {
  localDatabasePid,
  measure,
  median,
  printTable,
  SERVER_CPU,
  startPinned,
  withPlatformSettings,
  type Run,
} from './bench-support.js';

/**
 * Audited L1 REST throughput against the L0 figure of the same server and run (MariaDB), and the
 * p99 latency auditing adds. Alternating rounds, medians.
 */
export async function auditedThroughput(
  env: Record<string, string>,
  durationS: number,
  rounds = 3,
): Promise<{ auditedL1OverL0: number; addedP99Ms: number }> {
  const gateway = await startPinned<{ port: number; agentKey: string; quietKey: string }>(
    'bench-server.js',
    SERVER_CPU,
    env,
  );
  // The same database and core, answering once `finished` is queued (ADR 043); idle while the
  // other is measured.
  const queued = await startPinned<{ port: number; agentKey: string }>('bench-server.js', SERVER_CPU, {
    ...env,
    TOOLGATE_CONFIG_DIR: withPlatformSettings(env.TOOLGATE_CONFIG_DIR!, [
      ['finishedBeforeAnswer: true', 'finishedBeforeAnswer: false'],
    ]),
    TOOLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'toolgate-bench-data-')),
  });
  const base = `http://127.0.0.1:${gateway.info.port}/v1/agents/bench/tools`;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${gateway.info.agentKey}` };
  const quiet = { 'content-type': 'application/json', authorization: `Bearer ${gateway.info.quietKey}` };
  const targets = {
    L0: { url: `${base}/bench_noop/invoke`, body: JSON.stringify({ input: {} }) },
    L0quiet: { url: `${base}/bench_noop/invoke`, body: JSON.stringify({ input: {} }), headers: quiet },
    L1: {
      url: `${base}/bench_record/invoke`,
      body: JSON.stringify({ input: { note: '客户 13812345678 来电，要求回访' } }),
    },
    L1queued: {
      url: `http://127.0.0.1:${queued.info.port}/v1/agents/bench/tools/bench_record/invoke`,
      body: JSON.stringify({ input: { note: '客户 13812345678 来电，要求回访' } }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${queued.info.agentKey}` },
      pid: queued.pid,
    },
  };
  const runs: Record<string, Run[]> = { L0: [], L0quiet: [], L1: [], L1queued: [] };
  // Where an audited call's time goes: the gateway's core, and the database server's (local here).
  const dbPid = localDatabasePid(Number(new URL(env.DATABASE_URL!).port || 3306));
  try {
    for (let r = 0; r < rounds; r++) {
      for (const [name, t] of Object.entries(targets))
        runs[name]!.push(await measure({ headers, pid: gateway.pid, ...t, dbPid }, 64, durationS));
    }
  } finally {
    await Promise.all([gateway.stop(), queued.stop()]);
  }
  const summary = (name: string) => {
    const r = runs[name]!;
    return {
      rps: median(r.map((x) => x.rps)),
      p50: median(r.map((x) => x.p50Ms)),
      p99: median(r.map((x) => x.p99Ms)),
      cpu: median(r.map((x) => x.cpuUsPerReq)),
      dbCpu: dbPid ? median(r.map((x) => x.dbCpuUsPerReq ?? 0)) : undefined,
      errors: r.reduce((n, x) => n + x.errors + x.non2xx, 0),
    };
  };
  const l0 = summary('L0');
  const l0quiet = summary('L0quiet');
  const l1 = summary('L1');
  const l1queued = summary('L1queued');
  const ratio = l1.rps / l0.rps;
  printTable(
    `Audited calls over REST on MariaDB, c=64, median of ${rounds} alternating ${durationS} s runs`,
    ['call', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'MariaDB CPU µs/req', 'errors', 'L1 ÷ L0'],
    [
      [
        'L0 no-op, not recorded (audit.l0Access: false)',
        l0quiet.rps,
        l0quiet.p50,
        l0quiet.p99,
        l0quiet.cpu,
        l0quiet.dbCpu ?? '—',
        l0quiet.errors,
        '—',
      ],
      [
        'L0 no-op, one accessed event after it answers (default)',
        l0.rps,
        l0.p50,
        l0.p99,
        l0.cpu,
        l0.dbCpu ?? '—',
        l0.errors,
        `${(l0.rps / l0quiet.rps).toFixed(2)}× of not recorded`,
      ],
      [
        'L1 (started + finished durable, redacted)',
        l1.rps,
        l1.p50,
        l1.p99,
        l1.cpu,
        l1.dbCpu ?? '—',
        l1.errors,
        `${ratio.toFixed(2)}× (target ≥ 0.5×)`,
      ],
      [
        'L1, answered once finished is queued (audit.finishedBeforeAnswer: false)',
        l1queued.rps,
        l1queued.p50,
        l1queued.p99,
        l1queued.cpu,
        l1queued.dbCpu ?? '—',
        l1queued.errors,
        `${(l1queued.rps / l0.rps).toFixed(2)}×`,
      ],
      ['p99 latency added by auditing', '', '', l1.p99 - l0.p99, '', '', '', ''],
    ],
  );
  return { auditedL1OverL0: ratio, addedP99Ms: l1.p99 - l0.p99 };
}

/** A copy of the config directory whose `toolgate.yaml` says `to` where it said `from`. */

/** An admin-style audit event for load: its content does not matter, its size is realistic. */
export function auditDraft(i: number, tenantId: string): AuditEventDraft {
  return draftEvent({
    tenantId,
    event: 'key_created',
    actor: { type: 'system', id: 'bench' },
    input: { note: `event ${i}`, phone: '138****5678' },
    details: { i },
    occurredAt: new Date(),
    instanceId: 'bench',
  });
}

/**
 * The group-commit writer's sustained events/s on MariaDB: many callers appending at once, each
 * awaiting its own durability, chains intact (checked after by verification).
 */
export async function writerThroughput(
  env: Record<string, string>,
  total = 200_000,
  callers = 1024,
): Promise<{ writerEventsPerSec: number }> {
  const settings = loadSettings({ ...env, TOOLGATE_LOG_LEVEL: 'warn', TOOLGATE_DEMO: 'off' });
  const app = await createGateway(settings, { imports: [BenchToolsModule], quiet: true });
  await app.init();
  const writer = app.get(AuditWriter);
  const tenants = ['bench-a', 'bench-b', 'bench-c', 'bench-d'];
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await runLoad(total, callers, async (i) => {
    await writer.append([auditDraft(i, tenants[i % tenants.length]!)], 30_000);
  });
  const seconds = (performance.now() - t0) / 1000;
  // The writer's own CPU per event (callers and drafts included): less at the mercy of other
  // processes on the machine than events/s, which also waits on the database.
  const cpu = process.cpuUsage(cpu0);
  const cpuPerEvent = (cpu.user + cpu.system) / total;
  const rate = total / seconds;
  const verification = await app.get(CheckpointService).verify(tenants, {});
  await app.close();
  printTable(
    `Audit writer on MariaDB: ${total.toLocaleString('en-US')} events from ${callers} concurrent callers, each awaiting durability`,
    ['events', 'seconds', 'events/s', 'gateway CPU µs/event', 'chains verify', 'target'],
    [
      [
        total,
        seconds,
        rate,
        cpuPerEvent,
        verification.ok
          ? `yes (${verification.checked.toLocaleString('en-US')} events)`
          : `NO: ${verification.problem}`,
        '≥ 40,000 events/s',
      ],
    ],
  );
  return { writerEventsPerSec: rate };
}
