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
  readonly failed: number;
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
): Promise<Pick<ClusterRun, 'seconds' | 'failed' | 'verified'>> {
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
    const t0 = Date.now();
    const statuses = await runLoad(calls, CONCURRENCY, async (i) => {
      const res = await fetch(`${gateways[i % 2]!.url}/v1/agents/ops_assistant/tools/read_logs/invoke`, {
        method: 'POST',
        headers: { authorization: `Bearer ${agent}`, 'content-type': 'application/json' },
        body: JSON.stringify({ input: { service: 'payment-api', limit: 5 } }),
      });
      await res.arrayBuffer();
      return res.status;
    });
    const seconds = (Date.now() - t0) / 1000;
    const answered = statuses.filter((s) => s === 200).length;
    await callApi(gateways[1]!.url, 'POST', '/v1/audit/checkpoints', { key: ADMIN, body: {} });
    const verify = (await callApi(gateways[0]!.url, 'GET', '/v1/audit/verify', { key: ADMIN })).body.data as {
      ok: boolean;
      checked: number;
      problem?: string;
    };
    return {
      seconds,
      failed: calls - answered,
      verified: verify.ok
        ? `ok, ${verify.checked.toLocaleString('en-US')} events`
        : `BROKEN: ${verify.problem}`,
    };
  } finally {
    await Promise.all(gateways.map((g) => g.stop()));
  }
}

/** Lost and duplicated, counted with `query` on the database the gateways wrote. */
async function audit(
  query: (sql: string) => Promise<Record<string, unknown>[]>,
  answered: number,
): Promise<{ lost: number; duplicated: number }> {
  const n = async (sql: string) => Number((await query(sql))[0]!.n);
  const started = await n(
    `SELECT COUNT(*) AS n FROM audit_events WHERE tenant_id = 'acme' AND tool = 'read_logs' AND event = 'started'`,
  );
  const finished = await n(
    `SELECT COUNT(*) AS n FROM audit_events WHERE tenant_id = 'acme' AND tool = 'read_logs' AND event = 'finished'`,
  );
  const duplicated = await n(
    `SELECT COALESCE(SUM(c - 1), 0) AS n FROM (SELECT COUNT(*) AS c FROM audit_events WHERE call_id IS NOT NULL GROUP BY call_id, event HAVING COUNT(*) > 1) d`,
  );
  return { lost: Math.max(0, answered - started) + Math.max(0, answered - finished), duplicated };
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
    const counted = await audit((sql) => galera.query(2, sql), calls - run.failed);
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
      calls - run.failed,
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
