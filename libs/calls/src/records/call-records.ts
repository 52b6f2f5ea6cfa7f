import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  hydrateRow,
  selectColumns,
  TransactionRunner,
  type ReadStatement,
  type WriteStatement as SqlStatement,
} from '@toolgate/database';
import { In, LessThan, type DataSource, type EntityManager } from 'typeorm';
import { ToolCallEntity, type DecidedBy } from '../entities/tool-call.entity.js';
import { CallTransitions, type CallRef, type NewCallRecord } from './call-transitions.js';

/** SQL yielding one value: `?` with its parameter, or a scalar subquery. */
interface SqlValue {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/**
 * The one owner of `tool_calls`: reads, and the lifecycle transitions of `CallTransitions`, each
 * applied only when the call is in the status it expects (true when it moved).
 */
@Injectable()
export class CallRecords {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {}

  /** A call of a tenant. */
  find(ref: CallRef, em: EntityManager = this.dataSource.manager): Promise<ToolCallEntity | null> {
    return em
      .getRepository(ToolCallEntity)
      .findOne({ where: { tenantId: ref.tenantId, callId: ref.callId } });
  }

  /** The calls of `refs` that exist, in one query (tenant-keyed: a call id of another tenant is not found). */
  findMany(refs: readonly CallRef[]): Promise<ToolCallEntity[]> {
    if (!refs.length) return Promise.resolve([]);
    const callIds = new Map<string, string[]>();
    for (const r of refs) callIds.set(r.tenantId, [...(callIds.get(r.tenantId) ?? []), r.callId]);
    return this.dataSource
      .getRepository(ToolCallEntity)
      .find({ where: [...callIds].map(([tenantId, ids]) => ({ tenantId, callId: In(ids) })) });
  }

  /** A call of any tenant, for platform-wide readers; call ids are minted unique by the platform. */
  findInAnyTenant(callId: string): Promise<ToolCallEntity | null> {
    return this.dataSource.getRepository(ToolCallEntity).findOne({ where: { callId } });
  }

  /** Approved calls no gateway has started after `olderThan` (their approver's gateway went away). */
  queuedBefore(olderThan: Date, limit = 20): Promise<ToolCallEntity[]> {
    return this.dataSource
      .getRepository(ToolCallEntity)
      .find({ where: { status: 'queued', updatedAt: LessThan(olderThan) }, take: limit });
  }

  /** Stores a parked call inside the transaction that also stores its approval. */
  park(em: EntityManager, record: NewCallRecord): Promise<boolean> {
    return this.apply(em, CallTransitions.park(record));
  }

  deny(em: EntityManager, ref: CallRef, envelope: unknown, decidedBy: DecidedBy | null): Promise<boolean> {
    return this.apply(em, CallTransitions.deny(ref, envelope, decidedBy));
  }

  expire(em: EntityManager, ref: CallRef, envelope: unknown): Promise<boolean> {
    return this.apply(em, CallTransitions.expire(ref, envelope));
  }

  /**
   * `find` as a statement, to go in one packet with a caller's other reads: `tenantId` and `callId`
   * are SQL yielding one value each (`?`, or a scalar subquery of the caller's own table). Its rows
   * go to `recordFrom`.
   */
  recordRead(tenantId: SqlValue, callId: SqlValue): ReadStatement {
    return {
      sql: `SELECT ${selectColumns(this.dataSource, ToolCallEntity)} FROM tool_calls WHERE tenant_id = ${tenantId.sql} AND call_id = ${callId.sql}`,
      params: [...tenantId.params, ...callId.params],
    };
  }

  /** The record a `recordRead` answered, as `find` answers it. */
  recordFrom(rows: readonly Record<string, unknown>[]): ToolCallEntity | null {
    return rows[0] ? hydrateRow(this.dataSource, ToolCallEntity, rows[0]) : null;
  }

  /**
   * Ends an approved call that will not run (its tool vanished, its input no longer matches, its
   * key was revoked) while it is still `queued`: false when a gateway claimed it meanwhile.
   */
  refuse(ref: CallRef, envelope: unknown): Promise<boolean> {
    return this.applyAlone(CallTransitions.refuse(ref, envelope));
  }

  /** Ends a claimed call whose run broke before its outcome was recorded. */
  fail(ref: CallRef, envelope: unknown): Promise<boolean> {
    return this.applyAlone(CallTransitions.finish(ref, 'failed', envelope));
  }

  private async applyAlone(statement: SqlStatement): Promise<boolean> {
    const [changed] = await this.transactions.writeAll([statement]);
    return (changed ?? 0) > 0;
  }

  private async apply(em: EntityManager, statement: SqlStatement): Promise<boolean> {
    const [changed] = await this.transactions.writeIn(em, [statement]);
    return (changed ?? 0) > 0;
  }
}
