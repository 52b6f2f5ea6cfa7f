import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { isMysql } from './sql-dialect.js';

const LOCK_NAME = 'toolgate_migrations';
const LOCK_WAIT_SECONDS = 120;

/**
 * Runs pending migrations. On MySQL a named lock serializes gateways that boot together on one
 * database, so exactly one of them migrates and the others find the work done.
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<void> {
  const logger = new Logger('Migrations');
  const report = async () => {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    if (applied.length)
      logger.log(`applied ${applied.length} migration(s): ${applied.map((m) => m.name).join(', ')}`);
  };
  if (!isMysql(dataSource)) return report();
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
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
