import Database from 'better-sqlite3';
import { createConnection } from 'mysql2/promise';
import { MARIADB_ADMIN, type TestDatabase } from './test-database.js';

/** Direct SQL on a test database, behind the gateway's back: how tests tamper and inspect. */
export interface RawSql {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export async function openRawSql(db: TestDatabase): Promise<RawSql> {
  if (db.kind === 'sqlite') {
    const conn = new Database(db.url.slice('sqlite:'.length));
    conn.pragma('busy_timeout = 5000');
    return {
      async query<T>(sql: string, params: unknown[] = []) {
        const stmt = conn.prepare(sql);
        return (stmt.reader ? stmt.all(...params) : (stmt.run(...params), [])) as T[];
      },
      async close() {
        conn.close();
      },
    };
  }
  const conn = await createConnection({
    ...MARIADB_ADMIN,
    database: new URL(db.url).pathname.slice(1),
    supportBigNumbers: true,
    bigNumberStrings: true,
    timezone: 'Z',
    dateStrings: true,
  });
  return {
    async query<T>(sql: string, params: unknown[] = []) {
      const [rows] = await conn.query(sql, params);
      return (Array.isArray(rows) ? rows : []) as T[];
    },
    async close() {
      await conn.end();
    },
  };
}
