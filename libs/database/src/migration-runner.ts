import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { guardAppendOnly, guardedTables, liftAppendOnly, type PurgeExemption } from './append-only.js';
import { isGaleraNode, withClusterLock } from './cluster-lock.js';
import { isMysql } from './sql-dialect.js';

const LOCK_NAME = 'toolgate_migrations';
const LOCK_WAIT_SECONDS = 120;
/** Galera: a migrating gateway killed mid-way frees the cluster lock after this long. */
const LOCK_LEASE_SECONDS = 600;

/** Tables the database keeps append-only: `guard` installs their triggers, `known` are lifted around migrations. */
export interface AppendOnlyTables {
  readonly known: readonly string[];
  readonly guard: boolean;
  /** The DELETEs the guard still lets through: retention's purge of archived ranges (ADR 037). */
  readonly purge?: PurgeExemption;
}

/**
 * Runs pending migrations. On MySQL a named lock serializes gateways that boot together on one
 * database, so exactly one of them migrates and the others find the work done. On a Galera node a
 * named lock holds on that node only (ADR 042): there a lock row does it, cluster-wide. Append-only guards
 * come off for the migrations (which may rewrite rows) and go back on after them, and are installed
 * when `appendOnly.guard` asks; a deployment that never asked keeps none.
 */
export async function runMigrationsLocked(
  dataSource: DataSource,
  appendOnly: AppendOnlyTables = { known: [], guard: false },
): Promise<void> {
  const logger = new Logger('Migrations');
  const report = async () => {
    const guarded = await guardedTables(dataSource, appendOnly.known);
    const pending = await dataSource.showMigrations();
    if (pending && guarded.length > 0) await liftAppendOnly(dataSource, guarded);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      if (applied.length)
        logger.log(`applied ${applied.length} migration(s): ${applied.map((m) => m.name).join(', ')}`);
    } finally {
      if (pending && guarded.length > 0) await guardAppendOnly(dataSource, guarded, appendOnly.purge);
    }
    if (appendOnly.guard) await guardAppendOnly(dataSource, appendOnly.known, appendOnly.purge);
  };
  if (!isMysql(dataSource)) return report();
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    if (await isGaleraNode(runner))
      return await withClusterLock(
        runner,
        LOCK_NAME,
        { waitSeconds: LOCK_WAIT_SECONDS, leaseSeconds: LOCK_LEASE_SECONDS },
        report,
      );
    const [row] = (await runner.query('SELECT GET_LOCK(?, ?) AS acquired', [
      LOCK_NAME,
      LOCK_WAIT_SECONDS,
    ])) as { acquired: unknown }[];
    if (Number(row?.acquired) !== 1)
      throw new Error(`could not take the migration lock within ${LOCK_WAIT_SECONDS} s`);
    try {
      await report();
    } finally {
      await runner.query('SELECT RELEASE_LOCK(?)', [LOCK_NAME]);
    }
  } finally {
    await runner.release();
  }
}
