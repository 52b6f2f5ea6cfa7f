import { randomBytes } from 'node:crypto';
import { leaveApprovedCallsHeld } from '../../support/held-approvals.js';
import { openRawSql } from '../../support/raw-sql.js';
import { median, percentiles, printTable, startPinned, type Started } from './bench-support.js';

const ROUNDS = 300;
/** Dead-gateway rounds (each restarts the killed gateway) and approved calls it holds in each. */
const PICKUP_ROUNDS = 5;
const HELD_PER_ROUND = 4;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Resolves once process `pid` no longer exists. */
async function gone(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

type BenchGateway = Started<{ port: number; agentKey: string; approverKey: string }>;

async function post(url: string, key: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/**
 * The approvals section: latency of an approval round trip against a fresh L1 call, and how soon
 * approved calls left by a killed gateway run on the other one (Redis). Answers the two figures.
 */
export async function approvalLatency(env: Record<string, string>): Promise<Record<string, number>> {
  const approveToResultOverL1P50 = await roundTrips(env);
  const deadGatewayPickupMs = await deadGatewayPickup(env);
  printTable(
    'Approvals: the figures of issue 12',
    ['figure', 'value', 'target'],
    [
      ['approve → result p50 ÷ fresh L1 call p50', approveToResultOverL1P50.toFixed(2), '≤ 1.3'],
      [
        `dead gateway's approved calls all picked up (median of ${PICKUP_ROUNDS}), ms`,
        deadGatewayPickupMs,
        '≤ 200',
      ],
    ],
  );
  return { approveToResultOverL1P50, deadGatewayPickupMs };
}

/**
 * Latency of an approval round trip (park → approve → the call's result) and of an idempotent
 * replay, sequential requests against one gateway (MariaDB), milliseconds. Answers the approve
 * step's p50 over a fresh L1 call's.
 */
async function roundTrips(env: Record<string, string>): Promise<number> {
  const gw: BenchGateway = await startPinned('bench-server.js', 0, env);
  const base = `http://127.0.0.1:${gw.info.port}`;
  try {
    const park: number[] = [];
    const approve: number[] = [];
    const total: number[] = [];
    for (let i = 0; i < ROUNDS + 20; i++) {
      const t0 = process.hrtime.bigint();
      const parked = await post(`${base}/v1/agents/bench/tools/bench_danger/invoke`, gw.info.agentKey, {
        input: { target: `t${i}` },
      });
      const t1 = process.hrtime.bigint();
      const decided = await post(
        `${base}/v1/approvals/${parked.body.approvalId}/approve`,
        gw.info.approverKey,
        {},
      );
      const t2 = process.hrtime.bigint();
      if (parked.status !== 202 || decided.body.data?.call?.status !== 'succeeded')
        throw new Error(`round trip failed: ${JSON.stringify(decided.body)}`);
      if (i < 20) continue; // warm-up
      park.push(Number(t1 - t0));
      approve.push(Number(t2 - t1));
      total.push(Number(t2 - t0));
    }
    const fresh: number[] = [];
    const replay: number[] = [];
    for (let i = 0; i < ROUNDS + 20; i++) {
      const headers = { 'idempotency-key': `bench-${i}` };
      const body = { input: { note: `idempotent ${i}` } };
      const t0 = process.hrtime.bigint();
      const first = await post(
        `${base}/v1/agents/bench/tools/bench_record/invoke`,
        gw.info.agentKey,
        body,
        headers,
      );
      const t1 = process.hrtime.bigint();
      const again = await post(
        `${base}/v1/agents/bench/tools/bench_record/invoke`,
        gw.info.agentKey,
        body,
        headers,
      );
      const t2 = process.hrtime.bigint();
      if (first.body.status !== 'ok' || JSON.stringify(again.body) !== JSON.stringify(first.body))
        throw new Error('replay differs');
      if (i < 20) continue;
      fresh.push(Number(t1 - t0));
      replay.push(Number(t2 - t1));
    }
    const ms = (ns: number[]) => {
      const p = percentiles(ns);
      return [p.p50 / 1000, p.p99 / 1000, p.mean / 1000];
    };
    printTable(
      `Approvals and idempotency over REST on MariaDB (${ROUNDS} sequential rounds, ms)`,
      ['step', 'p50 ms', 'p99 ms', 'mean ms'],
      [
        ['park an L3 call (202 APPROVAL_PENDING, approval_requested audited)', ...ms(park)],
        ['approve → the call runs → its result in the answer', ...ms(approve)],
        ['approval round trip, park → result', ...ms(total)],
        ['L1 call with a new Idempotency-Key', ...ms(fresh)],
        ['idempotent replay (stored envelope, tool not run)', ...ms(replay)],
      ],
    );
    return percentiles(approve).p50 / percentiles(fresh).p50;
  } finally {
    await gw.stop();
  }
}

/**
 * Two gateways sharing Redis; gateway A holds approved calls (left as A leaves them when it dies
 * between its decision's commit and its claim) and is SIGKILLed: milliseconds from the kill until
 * gateway B has claimed every one of them (picked up; the run that follows is a call like any
 * other), median over the rounds. Polling alone takes `orphanAfterMs` (5 s) and up to a `pollMs` more.
 */
async function deadGatewayPickup(env: Record<string, string>): Promise<number> {
  const prefix = `bench-${randomBytes(4).toString('hex')}`;
  const clusterEnv = { ...env, REDIS_URL, TOOLGATE_REDIS_PREFIX: prefix };
  const start = (id: string, cpu: number): Promise<BenchGateway> =>
    startPinned('bench-server.js', cpu, { ...clusterEnv, TOOLGATE_INSTANCE_ID: id });
  const sql = await openRawSql({ kind: 'mariadb', url: env.DATABASE_URL!, drop: async () => undefined });
  const b = await start('bench-b', 1);
  const rounds: { claimedMs: number; ranMs: number }[] = [];
  try {
    for (let round = 0; round < PICKUP_ROUNDS; round++) {
      const a = await start('bench-a', 0);
      const callIds: string[] = [];
      for (let i = 0; i < HELD_PER_ROUND; i++) {
        const parked = await post(
          `http://127.0.0.1:${a.info.port}/v1/agents/bench/tools/bench_danger/invoke`,
          a.info.agentKey,
          { input: { target: `held ${round}.${i}` } },
        );
        if (parked.status !== 202) throw new Error(`park failed: ${JSON.stringify(parked.body)}`);
        callIds.push(parked.body.callId as string);
      }
      await leaveApprovedCallsHeld(sql, REDIS_URL, { prefix, instanceId: 'bench-a' }, 'bench', callIds);
      const t0 = process.hrtime.bigint();
      process.kill(a.pid, 'SIGKILL');
      const marks = callIds.map(() => '?').join(', ');
      let claimedMs: number | undefined;
      for (;;) {
        const rows = await sql.query<{ status: string }>(
          `SELECT status FROM tool_calls WHERE tenant_id = 'bench' AND call_id IN (${marks})`,
          callIds,
        );
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        if (claimedMs === undefined && rows.every((r) => r.status !== 'queued')) claimedMs = ms;
        if (rows.every((r) => r.status === 'succeeded')) {
          rounds.push({ claimedMs: claimedMs ?? ms, ranMs: ms });
          break;
        }
        if (ms > 30_000) throw new Error('held calls never ran');
        await new Promise((r) => setTimeout(r, 2));
      }
      await gone(a.pid); // not a.stop(): it waits for an exit event a SIGKILLed child has already sent
    }
  } finally {
    await b.stop();
    await sql.close();
  }
  printTable(
    `Approved calls of a SIGKILLed gateway taken over by the other one, Redis (${HELD_PER_ROUND} calls a round, ms after the kill)`,
    ['round', 'all claimed (picked up)', 'all run and answered'],
    rounds.map((r, i) => [String(i + 1), r.claimedMs.toFixed(0), r.ranMs.toFixed(0)]),
  );
  return Math.round(median(rounds.map((r) => r.claimedMs)));
}
