import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { createConnection, type Connection } from 'mysql2/promise';

const run = promisify(execFile);
const SCRIPT = resolve('scripts/galera-cluster.sh');

/** The three nodes of the loopback Galera cluster of scripts/galera-cluster.sh (ADR 042). */
export const GALERA_NODES = [1, 2, 3] as const;
export type GaleraNode = (typeof GALERA_NODES)[number];
export const galeraPort = (node: GaleraNode) => 3310 + node;

/**
 * Starts the nodes that are not running (all three Synced when it returns; running nodes are left
 * alone, so this is instant when the prerequisites already started the cluster).
 */
export async function startGaleraCluster(nodes: GaleraNode[] = []): Promise<string> {
  const { stdout } = await run('bash', [SCRIPT, 'start', ...nodes.map(String)], { timeout: 300_000 });
  return stdout;
}

/** SIGKILL of one node's mariadbd, mid-whatever it is doing. */
export async function killGaleraNode(node: GaleraNode): Promise<void> {
  await run('bash', [SCRIPT, 'kill', String(node)], { timeout: 30_000 });
}

export function galeraConnection(node: GaleraNode, database?: string): Promise<Connection> {
  return createConnection({
    host: '127.0.0.1',
    port: galeraPort(node),
    user: 'root',
    password: '',
    ...(database ? { database } : {}),
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
  });
}

/** A fresh database on the cluster (created on node 1, replicated), its URL on each node, and its drop. */
export interface GaleraDatabase {
  readonly name: string;
  url(node: GaleraNode): string;
  /** One query on one node. */
  query<T = Record<string, unknown>>(node: GaleraNode, sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

export async function createGaleraDatabase(): Promise<GaleraDatabase> {
  const name = `toolgate_g_${randomBytes(5).toString('hex')}`;
  const admin = await galeraConnection(1);
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  return {
    name,
    url: (node) => `mysql://root@127.0.0.1:${galeraPort(node)}/${name}`,
    async query<T>(node: GaleraNode, sql: string, params: unknown[] = []) {
      const conn = await galeraConnection(node, name);
      try {
        const [rows] = await conn.query(sql, params);
        return (Array.isArray(rows) ? rows : []) as T[];
      } finally {
        await conn.end();
      }
    },
    async drop() {
      for (const node of GALERA_NODES) {
        const c = await galeraConnection(node).catch(() => null);
        if (!c) continue; // a node that is down: any other drops it for the cluster
        await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await c.end();
        return;
      }
    },
  };
}

/**
 * Certification conflicts the cluster has counted so far, summed over the running nodes: a
 * transaction that failed certification at COMMIT (`wsrep_local_cert_failures`) or was aborted by a
 * replicated one that won (`wsrep_local_bf_aborts`) — each one an ER_LOCK_DEADLOCK its writer retried.
 */
export async function galeraConflicts(): Promise<number> {
  let total = 0;
  for (const node of GALERA_NODES) {
    const c = await galeraConnection(node).catch(() => null);
    if (!c) continue;
    const [rows] = await c.query(
      `SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_local_cert_failures', 'wsrep_local_bf_aborts')`,
    );
    for (const r of rows as { Value: string }[]) total += Number(r.Value);
    await c.end();
  }
  return total;
}

/** wsrep_cluster_size and wsrep_local_state_comment as one node sees them. */
export async function galeraNodeState(node: GaleraNode): Promise<{ size: number; state: string }> {
  const c = await galeraConnection(node);
  try {
    const [rows] = await c.query(
      `SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_cluster_size', 'wsrep_local_state_comment')`,
    );
    const v = Object.fromEntries(
      (rows as { Variable_name: string; Value: string }[]).map((r) => [r.Variable_name, r.Value]),
    );
    return { size: Number(v.wsrep_cluster_size), state: String(v.wsrep_local_state_comment) };
  } finally {
    await c.end();
  }
}
