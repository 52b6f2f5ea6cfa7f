import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { isMysql } from './sql-dialect.js';

/**
 * The one way repositories open a transaction. On MySQL each transaction gets its own pooled
 * connection. Embedded SQLite has a single connection, and TypeORM turns a second concurrent
 * transaction on it into a savepoint of the first — so one flow's rollback would undo another's
 * work. Here SQLite transactions queue instead. Never call `run` from inside `run`: pass the
 * EntityManager down.
 */
@Injectable()
export class TransactionRunner {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  run<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    if (isMysql(this.dataSource)) return this.dataSource.transaction(work);
    const result = this.tail.then(() => this.dataSource.transaction(work));
    this.tail = result.catch(() => undefined);
    return result;
  }
}
