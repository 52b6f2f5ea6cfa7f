import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { DataSourceOptions } from 'typeorm';

/** The database kinds the platform runs on. */
export type DatabaseKind = 'sqlite' | 'mysql';

/** A parsed `DATABASE_URL`. */
export type DatabaseTarget =
  | { readonly kind: 'sqlite'; readonly path: string }
  | {
      readonly kind: 'mysql';
      readonly host: string;
      readonly port: number;
      readonly username: string;
      readonly password: string;
      readonly database: string;
    };

/** The embedded default: zero set-up. */
export const DEFAULT_DATABASE_URL = 'sqlite:data/toolgate.sqlite';

/** The embedded default inside a data directory (TOOLGATE_DATA_DIR): the file moves with it. */
export function defaultDatabaseUrl(dataDir: string): string {
  return `sqlite:${dataDir.replace(/\/+$/, '')}/toolgate.sqlite`;
}

/**
 * Parses `DATABASE_URL`: `sqlite:<path>` (or `sqlite::memory:`), `mysql://user:pass@host:3306/db`
 * (`mariadb://` is the same).
 */
export function parseDatabaseUrl(url: string): DatabaseTarget {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!path) throw new Error('DATABASE_URL: sqlite needs a file path, e.g. sqlite:data/toolgate.sqlite');
    return { kind: 'sqlite', path };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('DATABASE_URL must look like sqlite:<path> or mysql://user:pass@host:3306/db');
  }
  if (parsed.protocol !== 'mysql:' && parsed.protocol !== 'mariadb:') {
    throw new Error(`DATABASE_URL: unsupported scheme ${parsed.protocol} (use sqlite: or mysql://)`);
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (!database)
    throw new Error(
      'DATABASE_URL: the MySQL URL needs a database name, e.g. mysql://root@127.0.0.1:3306/toolgate',
    );
  return {
    kind: 'mysql',
    host: parsed.hostname || '127.0.0.1',
    port: parsed.port ? Number(parsed.port) : 3306,
    username: decodeURIComponent(parsed.username || 'root'),
    password: decodeURIComponent(parsed.password),
    database,
  };
}

/** Connections in a MySQL pool unless `poolSize` says otherwise (`config/toolgate.yaml` shows it). */
export const DEFAULT_POOL_SIZE = 20;

/** Pool and timeout settings that apply to MySQL targets. */
export interface ConnectionTuning {
  /** Connections in the MySQL pool (DEFAULT_POOL_SIZE when unset). */
  readonly poolSize?: number;
  /** Give up connecting after this long, so a dead database fails fast. */
  readonly connectTimeoutMs?: number;
}

/** TypeORM options for a target. Migrations run separately, under a lock (see DatabaseModule). */
export function dataSourceOptions(target: DatabaseTarget, tuning: ConnectionTuning = {}): DataSourceOptions {
  if (target.kind === 'sqlite') {
    if (target.path !== ':memory:') mkdirSync(dirname(resolve(target.path)), { recursive: true });
    return {
      type: 'better-sqlite3',
      database: target.path,
      // WAL lets readers run beside the single writer; the busy timeout rides out short write locks.
      prepareDatabase: (db: { pragma(sql: string): unknown }) => {
        db.pragma('journal_mode = WAL');
        db.pragma('synchronous = NORMAL');
        db.pragma('busy_timeout = 5000');
        db.pragma('foreign_keys = ON');
      },
    };
  }
  return {
    type: 'mysql',
    host: target.host,
    port: target.port,
    username: target.username,
    password: target.password,
    database: target.database,
    charset: 'utf8mb4_unicode_ci',
    // Every DATETIME is UTC; BIGINT ids come back as strings, never as rounded numbers.
    timezone: 'Z',
    supportBigNumbers: true,
    bigNumberStrings: true,
    connectTimeout: tuning.connectTimeoutMs ?? 5_000,
    // Lets the audit writer send a batch's statements in one round trip. Every value is still
    // escaped by mysql2 (its `?` parameters, or `mysqlLiteral` — the same escape — for the audit
    // rows), so this widens nothing for injection.
    multipleStatements: true,
    poolSize: tuning.poolSize ?? DEFAULT_POOL_SIZE,
    extra: { enableKeepAlive: true, maxIdle: tuning.poolSize ?? DEFAULT_POOL_SIZE },
  };
}
