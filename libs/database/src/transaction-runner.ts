import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, QueryResult } from 'typeorm';
import { isMysql } from './sql-dialect.js';

/** Seconds a MySQL transaction waits for a row lock before giving up (the default is 50). */
const LOCK_WAIT_SECONDS = 5;

/** What every pooled MySQL connection is set to once, before its first transaction. */
const SESSION_SETTINGS = [
  'SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED',
  `SET SESSION innodb_lock_wait_timeout = ${LOCK_WAIT_SECONDS}`,
];

/** A parameterised statement that changes rows (INSERT, UPDATE, DELETE). */
export interface WriteStatement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/**
 * The one way repositories open a transaction.
 *
 * MySQL: every connection runs at READ COMMITTED with a short lock wait, set once per pooled
 * connection. Correctness comes from row locks (`SELECT … FOR UPDATE`) and unique keys, not from
 * gap locks, which under REPEATABLE READ only turned concurrent writers into deadlocks.
 *
 * SQLite: a single connection, and TypeORM turns a second concurrent transaction on it into a
 * savepoint of the first — one flow's rollback would undo another's work. Transactions queue.
 * Never call `run` from inside `run`: pass the EntityManager down.
 */
@Injectable()
export class TransactionRunner {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly prepared = new WeakSet<object>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  run<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    if (isMysql(this.dataSource)) return this.runMysql(work);
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
   * SQLite: one by one in a queued transaction.
   */
  writeAll(statements: readonly WriteStatement[]): Promise<number[]> {
    if (!isMysql(this.dataSource)) return this.run((em) => this.writeIn(em, statements));
    return this.writeAllMysql(statements);
  }

  /**
   * Runs write statements inside the caller's transaction (`em`) and answers how many rows each
   * changed: in one round trip on MySQL (multipleStatements), one by one on SQLite.
   */
  async writeIn(em: EntityManager, statements: readonly WriteStatement[]): Promise<number[]> {
    const runner = em.queryRunner;
    if (!runner?.isTransactionActive) throw new Error('writeIn runs inside a transaction');
    if (isMysql(this.dataSource) && statements.length > 1) {
      const results = (await runner.query(
        statements.map((s) => s.sql).join(';\n'),
        statements.flatMap((s) => s.params),
      )) as { affectedRows?: number }[];
      return statements.map((_, i) => Number(results[i]?.affectedRows ?? 0));
    }
    const changed: number[] = [];
    for (const s of statements) {
      const result = (await runner.query(s.sql, [...s.params], true)) as QueryResult;
      changed.push(result.affected ?? 0);
    }
    return changed;
  }

  private async writeAllMysql(statements: readonly WriteStatement[]): Promise<number[]> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const connection = (runner as unknown as { databaseConnection: object }).databaseConnection;
      const settings = this.prepared.has(connection) ? [] : SESSION_SETTINGS;
      const sql = [...settings, 'START TRANSACTION', ...statements.map((s) => s.sql), 'COMMIT'].join(';\n');
      let results: { affectedRows?: number }[];
      try {
        results = (await runner.query(
          sql,
          statements.flatMap((s) => s.params),
        )) as { affectedRows?: number }[];
      } catch (err) {
        await runner.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
      this.prepared.add(connection);
      const first = settings.length + 1;
      return statements.map((_, i) => Number(results[first + i]?.affectedRows ?? 0));
    } finally {
      await runner.release();
    }
  }
}
