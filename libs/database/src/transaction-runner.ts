import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, QueryResult } from 'typeorm';
import { isDeadlock, isMysql } from './sql-dialect.js';

/** Seconds a MySQL transaction waits for a row lock before giving up (the default is 50). */
const LOCK_WAIT_SECONDS = 5;

/** What every pooled MySQL connection is set to once, before its first transaction. */
const SESSION_SETTINGS = [
  'SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED',
  `SET SESSION innodb_lock_wait_timeout = ${LOCK_WAIT_SECONDS}`,
];

/**
 * Runs of one transaction that a deadlock rolled back whole. On Galera a certification conflict is
 * the same error (ER_LOCK_DEADLOCK) at COMMIT or at the next statement (ADR 042): the transaction
 * lost to one committed on another node, and running it again sees that one's rows — the claim
 * already taken, the key already stored — exactly as a writer that waited for its lock would.
 */
const DEADLOCK_ATTEMPTS = 4;

/** Runs `attempt` again after a deadlock, a few times, each after a short random pause. */
async function retryingDeadlocks<T>(attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (n >= DEADLOCK_ATTEMPTS || !isDeadlock(err)) throw err;
      await new Promise((r) => setTimeout(r, Math.random() * 10 * n));
    }
  }
}

/** A parameterised statement that changes rows (INSERT, UPDATE, DELETE). */
export interface WriteStatement {
  readonly sql: string;
  readonly params: readonly unknown[];
  /**
   * A condition of the transaction: when the statement changes no row, the whole transaction is
   * rolled back and `StatementRefusedError` thrown (a claim another writer won: the writes that go
   * with it must not commit). Checked by the server inside a multi-statement packet (below).
   */
  readonly guard?: true;
}

/** A parameterised SELECT, one result set. */
export interface ReadStatement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/** A guarded statement changed no row: its transaction was rolled back whole. */
export class StatementRefusedError extends Error {
  constructor() {
    super('a guarded statement changed no row; the transaction was rolled back');
    this.name = 'StatementRefusedError';
  }
}

/**
 * Follows a guarded statement inside a multi-statement packet: fails the packet (ER_SUBQUERY_NO_1_ROW,
 * 1242, on MySQL and MariaDB alike, whatever the sql_mode) when the statement before it changed no
 * row — `ROW_COUNT()` is still the previous statement's while this one runs. None of our other
 * statements has a subquery that could raise 1242, so the error names the guard.
 */
const GUARD_SQL = 'SET @toolgate_guard = (SELECT 1 UNION ALL SELECT 1 FROM DUAL WHERE ROW_COUNT() < 1)';
const SUBQUERY_ROWS_ERRNO = 1242;

function isGuardFailure(err: unknown): boolean {
  const e = err as { errno?: number; driverError?: { errno?: number } } | undefined;
  return (e?.driverError?.errno ?? e?.errno) === SUBQUERY_ROWS_ERRNO;
}

/** The statements of a packet, each guarded one followed by its guard; and where each result is. */
function withGuards(statements: readonly WriteStatement[]): { sql: string[]; at: number[] } {
  const sql: string[] = [];
  const at: number[] = [];
  for (const s of statements) {
    at.push(sql.length);
    sql.push(s.sql);
    if (s.guard) sql.push(GUARD_SQL);
  }
  return { sql, at };
}

/** What `readThenWrite`'s work answers: the writes to commit, and its value. */
export interface ReadThenWrite<T> {
  readonly writes: readonly WriteStatement[];
  readonly value: T;
}

/** What writeAllThenRead answers: rows changed per write, rows read per read. */
export interface WrittenAndRead {
  readonly changed: number[];
  readonly rows: Record<string, unknown>[][];
}

/**
 * The one way repositories open a transaction.
 *
 * MySQL: every connection runs at READ COMMITTED with a short lock wait, set once per pooled
 * connection. Correctness comes from row locks (`SELECT … FOR UPDATE`) and unique keys, not from
 * gap locks, which under REPEATABLE READ only turned concurrent writers into deadlocks.
 *
 * A transaction a deadlock (or, on Galera, a certification conflict) rolled back is run again, a
 * few times: `work` must have no effect outside the transaction before it commits.
 *
 * SQLite: a single connection, and TypeORM turns a second concurrent transaction on it into a
 * savepoint of the first — one flow's rollback would undo another's work. Transactions queue.
 * Never call `run` from inside `run`: pass the EntityManager down.
 */
@Injectable()
export class TransactionRunner {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly prepared = new WeakSet<object>();
  /**
   * Whether the server is a Galera node (wsrep on), read once. There a transaction never goes as
   * one multi-statement packet (ADR 042): a replicated transaction that wins a conflict aborts the
   * local one mid-packet, and the packet's remaining statements then run, and commit, outside any
   * transaction — a batch's rows without its head move. One statement per round trip there.
   */
  private galera: Promise<boolean> | undefined;
  private onGalera = false;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private isGalera(): Promise<boolean> {
    this.galera ??= this.dataSource
      .query(`SHOW VARIABLES LIKE 'wsrep_on'`)
      .then((rows: { Value?: string }[]) => String(rows[0]?.Value ?? '').toUpperCase() === 'ON')
      .then(
        (on) => (this.onGalera = on),
        () => ((this.galera = undefined), false), // asked again next time
      );
    return this.galera;
  }

  run<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    if (isMysql(this.dataSource))
      return this.isGalera().then(() => retryingDeadlocks(() => this.runMysql(work)));
    const result = this.tail.then(() => this.dataSource.transaction(work));
    this.tail = result.catch(() => undefined);
    return result;
  }

  private async runMysql<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const connection = (runner as unknown as { databaseConnection: object }).databaseConnection;
      if (!this.prepared.has(connection)) {
        for (const setting of SESSION_SETTINGS) await runner.query(setting);
        this.prepared.add(connection);
      }
      await runner.startTransaction();
      try {
        const result = await work(runner.manager);
        await runner.commitTransaction();
        return result;
      } catch (err) {
        if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
        throw err;
      }
    } finally {
      await runner.release();
    }
  }

  /**
   * Runs write statements in one transaction and answers how many rows each changed. MySQL: all
   * of them, with START and COMMIT (and a new connection's settings), in one round trip
   * (multipleStatements); a failing statement stops the rest and the transaction is rolled back.
   * SQLite: one by one in a queued transaction. A deadlock runs them again (a claim another node's
   * writer won then changes no row, as it would have after waiting for its lock).
   */
  writeAll(statements: readonly WriteStatement[]): Promise<number[]> {
    if (!isMysql(this.dataSource)) return this.run((em) => this.writeIn(em, statements));
    return this.isGalera().then((galera) =>
      galera
        ? this.run((em) => this.writeIn(em, statements))
        : retryingDeadlocks(() => this.writeAllMysql(statements)),
    );
  }

  /**
   * writeAll, then `reads` once it committed: on MySQL in the same round trip (after COMMIT in the
   * one packet, so a read sees the writes and whatever committed before), elsewhere one by one.
   * For checks a caller would otherwise make with a round trip of their own just after the write.
   */
  async writeAllThenRead(
    statements: readonly WriteStatement[],
    reads: readonly ReadStatement[],
  ): Promise<WrittenAndRead> {
    if (!isMysql(this.dataSource) || (await this.isGalera())) {
      const changed = statements.length ? await this.writeAll(statements) : [];
      const rows: Record<string, unknown>[][] = [];
      for (const r of reads) rows.push((await this.dataSource.query(r.sql, [...r.params])) as never);
      return { changed, rows };
    }
    return retryingDeadlocks(() => this.writeAllMysql(statements, reads));
  }

  /**
   * Runs write statements inside the caller's transaction (`em`) and answers how many rows each
   * changed: in one round trip on MySQL (multipleStatements), one by one on SQLite and on Galera.
   */
  async writeIn(em: EntityManager, statements: readonly WriteStatement[]): Promise<number[]> {
    const runner = em.queryRunner;
    if (!runner?.isTransactionActive) throw new Error('writeIn runs inside a transaction');
    if (isMysql(this.dataSource) && statements.length > 1 && !this.onGalera) {
      const { sql, at } = withGuards(statements);
      let results: { affectedRows?: number }[];
      try {
        results = (await runner.query(
          sql.join(';\n'),
          statements.flatMap((s) => s.params),
        )) as {
          affectedRows?: number;
        }[];
      } catch (err) {
        if (statements.some((s) => s.guard) && isGuardFailure(err)) throw new StatementRefusedError();
        throw err;
      }
      return at.map((i) => Number(results[i]?.affectedRows ?? 0));
    }
    const changed: number[] = [];
    for (const s of statements) {
      const result = (await runner.query(s.sql, [...s.params], true)) as QueryResult;
      if (s.guard && !result.affected) throw new StatementRefusedError();
      changed.push(result.affected ?? 0);
    }
    return changed;
  }

  /**
   * One transaction as reads, then a decision in the gateway, then writes: on one MySQL/MariaDB
   * server in two round trips — `START TRANSACTION` and every read (row locks included) in one
   * packet, the writes and `COMMIT` in the other. On Galera each statement goes alone (ADR 042); on
   * SQLite one by one in a queued transaction. `work` gets each read's rows (raw, by column name)
   * and answers what to write; throwing rolls everything back. A deadlock runs it all again, so
   * `work` must have no effect outside the transaction before it commits.
   */
  readThenWrite<T>(
    reads: (dialect: 'mysql' | 'sqlite') => readonly ReadStatement[],
    work: (rows: Record<string, unknown>[][], dialect: 'mysql' | 'sqlite') => Promise<ReadThenWrite<T>>,
  ): Promise<T> {
    if (!isMysql(this.dataSource))
      return this.run(async (em) => {
        const rows: Record<string, unknown>[][] = [];
        for (const r of reads('sqlite'))
          rows.push((await em.query(r.sql, [...r.params])) as Record<string, unknown>[]);
        const { writes, value } = await work(rows, 'sqlite');
        if (writes.length) await this.writeIn(em, writes);
        return value;
      });
    return this.isGalera().then((galera) =>
      galera
        ? this.run(async (em) => {
            const rows: Record<string, unknown>[][] = [];
            for (const r of reads('mysql'))
              rows.push((await em.query(r.sql, [...r.params])) as Record<string, unknown>[]);
            const { writes, value } = await work(rows, 'mysql');
            if (writes.length) await this.writeIn(em, writes);
            return value;
          })
        : retryingDeadlocks(() => this.readThenWriteMysql(reads('mysql'), work)),
    );
  }

  private async readThenWriteMysql<T>(
    reads: readonly ReadStatement[],
    work: (rows: Record<string, unknown>[][], dialect: 'mysql') => Promise<ReadThenWrite<T>>,
  ): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    let open = false;
    try {
      const connection = (runner as unknown as { databaseConnection: object }).databaseConnection;
      const settings = this.prepared.has(connection) ? [] : SESSION_SETTINGS;
      open = true;
      const results = (await runner.query(
        [...settings, 'START TRANSACTION', ...reads.map((r) => r.sql)].join(';\n'),
        reads.flatMap((r) => r.params),
      )) as unknown[];
      this.prepared.add(connection);
      // START TRANSACTION and the reads: always several statements, so one result set each.
      const first = settings.length + 1;
      const rows = reads.map((_, i) => results[first + i] as Record<string, unknown>[]);
      const { writes, value } = await work(rows, 'mysql');
      const { sql } = withGuards(writes);
      try {
        await runner.query(
          [...sql, 'COMMIT'].join(';\n'),
          writes.flatMap((w) => w.params),
        );
      } catch (err) {
        if (writes.some((w) => w.guard) && isGuardFailure(err)) throw new StatementRefusedError();
        throw err;
      }
      open = false;
      return value;
    } catch (err) {
      if (open) await runner.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      await runner.release();
    }
  }

  private async writeAllMysql(statements: readonly WriteStatement[]): Promise<number[]>;
  private async writeAllMysql(
    statements: readonly WriteStatement[],
    reads: readonly ReadStatement[],
  ): Promise<WrittenAndRead>;
  private async writeAllMysql(
    statements: readonly WriteStatement[],
    reads?: readonly ReadStatement[],
  ): Promise<number[] | WrittenAndRead> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const connection = (runner as unknown as { databaseConnection: object }).databaseConnection;
      const settings = this.prepared.has(connection) ? [] : SESSION_SETTINGS;
      const { sql, at } = withGuards(statements);
      let results: unknown[];
      try {
        results = (await runner.query(
          [...settings, 'START TRANSACTION', ...sql, 'COMMIT', ...(reads ?? []).map((r) => r.sql)].join(
            ';\n',
          ),
          [...statements.flatMap((s) => s.params), ...(reads ?? []).flatMap((r) => r.params)],
        )) as unknown[];
      } catch (err) {
        await runner.query('ROLLBACK').catch(() => undefined);
        if (statements.some((s) => s.guard) && isGuardFailure(err)) throw new StatementRefusedError();
        throw err;
      }
      this.prepared.add(connection);
      const first = settings.length + 1;
      const changed = at.map((i) =>
        Number((results[first + i] as { affectedRows?: number } | undefined)?.affectedRows ?? 0),
      );
      if (!reads) return changed;
      // After START TRANSACTION, every statement and its guards, and COMMIT.
      const afterCommit = first + sql.length + 1;
      return { changed, rows: reads.map((_, i) => results[afterCommit + i] as Record<string, unknown>[]) };
    } finally {
      await runner.release();
    }
  }
}
