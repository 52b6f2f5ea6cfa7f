import { randomBytes } from 'node:crypto';
import type { QueryRunner } from 'typeorm';

/**
 * Galera (ADR 042): `GET_LOCK()` is node-local — a gateway on another node of the cluster takes the
 * "same" named lock at once. A lock that must hold across the cluster is a row instead: whoever
 * commits the row's insert first holds it (certification lets exactly one of two concurrent
 * inserts of one primary key commit; the other fails with a duplicate key or a certification
 * conflict, both "taken"). The row carries a lease, so a holder killed mid-work does not block the
 * cluster forever.
 */
const TABLE = 'toolgate_cluster_locks';

/** Whether this MariaDB is a node of a Galera cluster (wsrep on). */
export async function isGaleraNode(runner: QueryRunner): Promise<boolean> {
  const rows = (await runner.query(`SHOW VARIABLES LIKE 'wsrep_on'`)) as { Value?: string }[];
  return String(rows[0]?.Value ?? '').toUpperCase() === 'ON';
}

/**
 * Holds the cluster-wide lock `name` while `work` runs, waiting up to `waitSeconds` for it; a lock
 * older than `leaseSeconds` is taken as abandoned.
 */
export async function withClusterLock<T>(
  runner: QueryRunner,
  name: string,
  options: { waitSeconds: number; leaseSeconds: number },
  work: () => Promise<T>,
): Promise<T> {
  // DDL on Galera is replicated in total order: both nodes may run this, both succeed.
  await runner.query(
    `CREATE TABLE IF NOT EXISTS ${TABLE} (name VARCHAR(64) NOT NULL PRIMARY KEY, holder VARCHAR(64) NOT NULL, expires_at DATETIME NOT NULL) ENGINE=InnoDB`,
  );
  const holder = randomBytes(12).toString('hex');
  const deadline = Date.now() + options.waitSeconds * 1000;
  for (;;) {
    await runner.query(`DELETE FROM ${TABLE} WHERE name = ? AND expires_at < UTC_TIMESTAMP()`, [name]);
    const taken = await runner
      .query(
        `INSERT INTO ${TABLE} (name, holder, expires_at) VALUES (?, ?, UTC_TIMESTAMP() + INTERVAL ${options.leaseSeconds} SECOND)`,
        [name, holder],
      )
      .then(
        () => true,
        () => false, // duplicate key or certification conflict: another gateway holds it
      );
    if (taken) break;
    if (Date.now() > deadline)
      throw new Error(`could not take the cluster lock ${name} within ${options.waitSeconds} s`);
    await new Promise((r) => setTimeout(r, 250 + Math.random() * 250));
  }
  try {
    return await work();
  } finally {
    await runner.query(`DELETE FROM ${TABLE} WHERE name = ? AND holder = ?`, [name, holder]);
  }
}
