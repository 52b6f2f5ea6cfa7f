import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { makeConfigDir } from '../../support/config-dir.js';
import {
  createGaleraDatabase,
  galeraConflicts,
  startGaleraCluster,
  type GaleraNode,
} from '../../support/galera.js';
import { runLoad, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { createTestDatabase } from '../../support/test-database.js';
import { callApi } from '../../support/test-gateway.js';
import { printTable } from './bench-support.js';

const ADMIN = 'tg_cluster-bench-admin-key-01234';
const CONCURRENCY = 64;

interface ClusterRun {
  readonly seconds: number;
  /** Calls not answered 200, with their status and code. */
  readonly failed: number | string;
  readonly lost: number;
  readonly duplicated: number;
  readonly conflicts: number | undefined;
  readonly verified: string;
}

/**
 * Audited L1 calls (the demo's `read_logs`, started + finished durable) spread over two gateway
 * processes, counted in the database afterwards: lost = calls answered 200 whose `started` or
 * `finished` is missing, duplicated = events stored twice; then the chains verified.
 */
async function twoGateways(
  urls: [string, string],
  calls: number,
): Promise<Pick<ClusterRun, 'seconds' | 'failed' | 'verified'> & { answered: string[] }> {
  const env = {
    TOOLGATE_DEMO: 'on',
    TOOLGATE_ADMIN_KEY: ADMIN,
    TOOLGATE_AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519')
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString(),
    TOOLGATE_AUDIT_SECRET: randomBytes(32).toString('hex'),
    TOOLGATE_CONFIG_DIR: makeConfigDir({}, 'audit:\n  writeDeadlineMs: 30000\n'),
  };
  const gateways: GatewayProcess[] = [];
  try {
    gateways.push(
      ...(await Promise.all(
        urls.map((url, i) =>
          startGatewayProcess({ ...env, DATABASE_URL: url, TOOLGATE_INSTANCE_ID: `gw-${i + 1}` }),
        ),
      )),
    );
    const agent: string = (
      await callApi(gateways[0]!.url, 'POST', '/v1/admin/keys', {
        key: ADMIN,
        body: { name: 'bench', role: 'agent', tenantId: 'acme' },
      })
    ).body.data.key;
    const answeredIds: string[] = [];
    const t0 = Date.now();
    const statuses = await runLoad(calls, CONCURRENCY, async (i) => {
      const res = await fetch(`${gateways[i % 2]!.url}/v1/agents/ops_assistant/tools/read_logs/invoke`, {
        method: 'POST',
        headers: { authorization: `Bearer ${agent}`, 'content-type': 'application/json' },
        body: JSON.stringify({ input: { service: 'payment-api', limit: 5 } }),
      });
      const body = (await res.json().catch(() => ({}))) as { code?: string };
      if (res.status === 200) answeredIds.push(res.headers.get('x-call-id') ?? '');
      return res.status === 200 ? 'ok' : `${res.status} ${body.code ?? ''}`.trim();
    });
    const seconds = (Date.now() - t0) / 1000;
    const answered = statuses.filter((s) => s === 'ok').length;
    const refused = new Map<string, number>();
    for (const s of statuses) if (s !== 'ok') refused.set(s, (refused.get(s) ?? 0) + 1);
    await callApi(gateways[1]!.url, 'POST', '/v1/audit/checkpoints', { key: ADMIN, body: {} });
    const verify = (await callApi(gateways[0]!.url, 'GET', '/v1/audit/verify', { key: ADMIN })).body.data as {
      ok: boolean;
      checked: number;
      problem?: string;
    };
    return {
      seconds,
      answered: answeredIds,
      failed:
        answered === calls
          ? 0
          : `${calls - answered} (${[...refused].map(([k, n]) => `${k} ×${n}`).join(', ')})`,
      verified: verify.ok
        ? `ok, ${verify.checked.toLocaleString('en-US')} events`
        : `BROKEN: ${verify.problem}`,
    };
  } finally {
    await Promise.all(gateways.map((g) => g.stop()));
  }
}

/**
 * Lost: calls answered 200 whose `started` or `finished` is not stored (each missing event counted);
 * duplicated: events stored more than once for one call. Counted with `query` on the database.
 */
async function audit(
  query: (sql: string) => Promise<Record<string, unknown>[]>,
  answered: readonly string[],
): Promise<{ lost: number; duplicated: number }> {
  const rows = await query(
    `SELECT call_id, SUM(event = 'started') AS started, SUM(event = 'finished') AS finished FROM audit_events WHERE tenant_id = 'acme' AND tool = 'read_logs' GROUP BY call_id`,
  );
  const stored = new Map(
    rows.map((r) => [String(r.call_id), { started: Number(r.started), finished: Number(r.finished) }]),
  );
  let lost = 0;
  let duplicated = 0;
  for (const id of answered) {
    const e = stored.get(id) ?? { started: 0, finished: 0 };
    lost += (e.started ? 0 : 1) + (e.finished ? 0 : 1);
  }
  for (const e of stored.values()) duplicated += Math.max(0, e.started - 1) + Math.max(0, e.finished - 1);
  return { lost, duplicated };
}

/**
 * `npm run bench -- --only cluster` (ADR 042): `calls` audited L1 calls over two gateways on two
 * nodes of the three-node Galera cluster (scripts/galera-cluster.sh), beside the same load over two
 * gateways on the one MariaDB server. Certification conflicts are the cluster's own count.
 */
export async function clusterThroughput(calls: number): Promise<void> {
  await startGaleraCluster();
  const rows: (string | number)[][] = [];
  const row = (name: string, calls: number, r: ClusterRun) => [
    name,
    calls,
    calls / r.seconds,
    r.failed,
    r.lost,
    r.duplicated,
    r.conflicts ?? '—',
    r.verified,
  ];

  const galera = await createGaleraDatabase();
  try {
    const before = await galeraConflicts();
    const nodes: [GaleraNode, GaleraNode] = [1, 2];
    const run = await twoGateways([galera.url(nodes[0]), galera.url(nodes[1])], calls);
    const conflicts = (await galeraConflicts()) - before;
    const counted = await audit((sql) => galera.query(2, sql), run.answered);
    rows.push(row('Galera, 3 nodes, gateways on nodes 1 and 2', calls, { ...run, ...counted, conflicts }));
  } finally {
    await galera.drop();
  }

  const single = await createTestDatabase('mariadb');
  try {
    const run = await twoGateways([single.url, single.url], calls);
    const { createConnection } = await import('mysql2/promise');
    const conn = await createConnection({
      host: '127.0.0.1',
      port: 3306,
      user: 'root',
      database: new URL(single.url).pathname.slice(1),
    });
    const counted = await audit(
      async (sql) => (await conn.query(sql))[0] as Record<string, unknown>[],
      run.answered,
    );
    await conn.end();
    rows.push(
      row('one MariaDB server, both gateways on it', calls, { ...run, ...counted, conflicts: undefined }),
    );
  } finally {
    await single.drop();
  }

  printTable(
    `Audited L1 calls over two gateways, c=${CONCURRENCY}: a three-node Galera cluster against one MariaDB server`,
    ['database', 'calls', 'calls/s', 'failed', 'lost', 'duplicated', 'conflicts retried', 'verify'],
    rows,
  );
}
