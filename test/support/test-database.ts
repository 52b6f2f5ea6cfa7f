import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';

/** Which database an e2e project runs against (set by vitest.config.ts per project). */
export type TestDatabaseKind = 'sqlite' | 'mariadb';

export const MARIADB_ADMIN = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };

export function testDatabaseKind(): TestDatabaseKind {
  return process.env.TOOLGATE_TEST_DB === 'mariadb' ? 'mariadb' : 'sqlite';
}

/** A fresh, empty database for one test file, and how to drop it. */
export interface TestDatabase {
  readonly kind: TestDatabaseKind;
  readonly url: string;
  drop(): Promise<void>;
}

/**
 * Creates an empty database: a temporary SQLite file, or a new MariaDB database on the local
 * server. A missing MariaDB is an error, never a skip.
 */
export async function createTestDatabase(kind: TestDatabaseKind = testDatabaseKind()): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-test-'));
    return {
      kind,
      url: `sqlite:${join(dir, 'toolgate.sqlite')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `toolgate_t_${randomBytes(5).toString('hex')}`;
  const conn = await createConnection(MARIADB_ADMIN).catch((err: Error) => {
    throw new Error(
      `MariaDB is required for the mariadb e2e project (127.0.0.1:3306, root, empty password): ${err.message}`,
    );
  });
  await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await conn.end();
  return {
    kind,
    url: `mysql://root@127.0.0.1:3306/${name}`,
    drop: async () => {
      const c = await createConnection(MARIADB_ADMIN);
      await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await c.end();
    },
  };
}
