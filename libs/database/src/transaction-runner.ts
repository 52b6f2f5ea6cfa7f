import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { isMysql } from './sql-dialect.js';

/** Seconds a MySQL transaction waits for a row lock before giving up (the default is 50). */
const LOCK_WAIT_SECONDS = 5;

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
        await runner.query(`SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED`);
        await runner.query(`SET SESSION innodb_lock_wait_timeout = ${LOCK_WAIT_SECONDS}`);
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
}
