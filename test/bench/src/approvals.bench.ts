import { percentiles, printTable, startPinned } from './bench-support.js';

const ROUNDS = 300;

async function post(url: string, key: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/**
 * Latency of an approval round trip (park → approve → the call's result) and of an idempotent
 * replay, sequential requests against one gateway (MariaDB), milliseconds.
 */
export async function approvalLatency(env: Record<string, string>): Promise<void> {
  const gw = await startPinned<{ port: number; agentKey: string; approverKey: string }>(
    'bench-server.js',
    0,
    env,
  );
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
  } finally {
    await gw.stop();
  }
}
