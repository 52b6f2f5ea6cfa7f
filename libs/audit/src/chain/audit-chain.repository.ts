import { Injectable } from '@nestjs/common';
import { isMysql, TransactionRunner } from '@toolgate/database';
import type { EntityManager } from 'typeorm';
import { GENESIS_HASH, type AuditEventDraft } from '../audit-event.js';
import { eventHash } from './event-hash.js';
import { toSqlDateTime } from './sql-time.js';

/** One event to append, with the bookkeeping that makes writes idempotent. */
export interface ChainEntry {
  readonly draft: AuditEventDraft;
  /** A retried write with a key already in the table is dropped, not duplicated. */
  readonly dedupeKey: string | null;
  /** `started`: opens the call. */
  readonly opens: boolean;
  /** A closing event: written only if the call was opened and is not closed yet. */
  readonly closes: boolean;
}

/** What became of an entry. */
export type EntryOutcome = 'written' | 'dropped';

const EVENT_COLUMNS = [
  'tenant_id',
  'seq',
  'event',
  'call_id',
  'tool',
  'implementation',
  'risk_level',
  'agent_type',
  'session_id',
  'actor_type',
  'actor_id',
  'initiator_id',
  'approver_id',
  'binding_version',
  'definition_hash',
  'input',
  'output_summary',
  'status',
  'code',
  'duration_ms',
  'details',
  'occurred_at',
  'instance_id',
  'dedupe_key',
  'prev_hash',
  'hash',
] as const;
const ROWS_PER_INSERT = 400;

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

function startedKey(callId: string): string {
  return `${callId}:started`;
}
function closedKey(callId: string): string {
  return `${callId}:closed`;
}

/**
 * The one place audit rows are written: a batch of events appended to their tenants' chains in
 * one transaction. The chain heads are locked (`SELECT … FOR UPDATE` on MySQL; SQLite serializes
 * writers itself), so gateways sharing a database extend each chain in one order.
 */
@Injectable()
export class AuditChainRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  /** Appends a batch; inside `em` when given (an admin change and its event commit together). */
  append(entries: readonly ChainEntry[], em?: EntityManager): Promise<EntryOutcome[]> {
    if (em) return this.appendIn(em, entries);
    return this.transactions.run((tx) => this.appendIn(tx, entries));
  }

  private async appendIn(em: EntityManager, entries: readonly ChainEntry[]): Promise<EntryOutcome[]> {
    const mysql = isMysql(em);
    if (mysql) await em.query('SET SESSION innodb_lock_wait_timeout = 5');
    const heads = await this.lockHeads(em, [...new Set(entries.map((e) => e.draft.tenantId))].sort(), mysql);
    const outcomes = await this.decide(em, entries);

    const rows: unknown[][] = [];
    const opened: ChainEntry[] = [];
    const closed: string[] = [];
    entries.forEach((entry, i) => {
      if (outcomes[i] !== 'written') return;
      const head = heads.get(entry.draft.tenantId)!;
      const seq = head.seq + 1;
      const hash = eventHash(head.hash, entry.draft, seq);
      rows.push(this.row(entry, seq, head.hash, hash));
      heads.set(entry.draft.tenantId, { seq, hash, changed: true });
      if (entry.opens) opened.push(entry);
      if (entry.closes) closed.push(entry.draft.callId!);
    });

    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      const chunk = rows.slice(i, i + ROWS_PER_INSERT);
      const placeholders = chunk.map(() => `(${EVENT_COLUMNS.map(() => '?').join(',')})`).join(',');
      await em.query(
        `INSERT INTO audit_events (${EVENT_COLUMNS.join(',')}) VALUES ${placeholders}`,
        chunk.flat(),
      );
    }
    const stillOpen = opened.filter((e) => !closed.includes(e.draft.callId!));
    if (stillOpen.length) {
      await em.query(
        `INSERT INTO audit_open_calls (call_id, tenant_id, tool, instance_id, started_at) VALUES ${stillOpen.map(() => '(?,?,?,?,?)').join(',')}`,
        stillOpen.flatMap((e) => [
          e.draft.callId,
          e.draft.tenantId,
          e.draft.tool,
          e.draft.instanceId,
          toSqlDateTime(e.draft.occurredAt),
        ]),
      );
    }
    if (closed.length) {
      await em.query(
        `DELETE FROM audit_open_calls WHERE call_id IN (${closed.map(() => '?').join(',')})`,
        closed,
      );
    }
    for (const [tenantId, head] of heads) {
      if (head.changed)
        await em.query('UPDATE audit_chain_heads SET seq = ?, head_hash = ? WHERE tenant_id = ?', [
          head.seq,
          head.hash,
          tenantId,
        ]);
    }
    return outcomes;
  }

  private async lockHeads(em: EntityManager, tenants: string[], mysql: boolean) {
    const marks = tenants.map(() => '?').join(',');
    await em.query(
      `INSERT ${mysql ? 'IGNORE' : 'OR IGNORE'} INTO audit_chain_heads (tenant_id, seq, head_hash) VALUES ${tenants.map(() => '(?,0,?)').join(',')}`,
      tenants.flatMap((t) => [t, GENESIS_HASH]),
    );
    const rows = (await em.query(
      `SELECT tenant_id, seq, head_hash FROM audit_chain_heads WHERE tenant_id IN (${marks}) ORDER BY tenant_id${mysql ? ' FOR UPDATE' : ''}`,
      tenants,
    )) as { tenant_id: string; seq: string | number; head_hash: string }[];
    return new Map(rows.map((r) => [r.tenant_id, { seq: Number(r.seq), hash: r.head_hash, changed: false }]));
  }

  /**
   * Which entries to write. Dropped: a dedupe key already stored (a retry of a write that did
   * commit); a closing event for a call never started or already closed.
   */
  private async decide(em: EntityManager, entries: readonly ChainEntry[]): Promise<EntryOutcome[]> {
    const keys = new Set<string>();
    for (const e of entries) {
      if (e.dedupeKey) keys.add(e.dedupeKey);
      if (e.closes && e.draft.callId) {
        keys.add(startedKey(e.draft.callId));
        keys.add(closedKey(e.draft.callId));
      }
    }
    const present = new Set<string>();
    const all = [...keys];
    for (let i = 0; i < all.length; i += ROWS_PER_INSERT) {
      const chunk = all.slice(i, i + ROWS_PER_INSERT);
      const rows = (await em.query(
        `SELECT dedupe_key FROM audit_events WHERE dedupe_key IN (${chunk.map(() => '?').join(',')})`,
        chunk,
      )) as { dedupe_key: string }[];
      for (const r of rows) present.add(r.dedupe_key);
    }
    return entries.map((e) => {
      if (e.dedupeKey && present.has(e.dedupeKey)) return 'dropped';
      if (e.closes) {
        const id = e.draft.callId!;
        if (!present.has(startedKey(id)) || present.has(closedKey(id))) return 'dropped';
        present.add(closedKey(id));
      }
      if (e.dedupeKey) present.add(e.dedupeKey);
      return 'written';
    });
  }

  private row(entry: ChainEntry, seq: number, prevHash: string, hash: string): unknown[] {
    const d = entry.draft;
    return [
      d.tenantId,
      seq,
      d.event,
      d.callId,
      d.tool,
      d.implementation,
      d.riskLevel,
      d.agentType,
      d.sessionId,
      d.actor.type,
      d.actor.id,
      d.initiatorId,
      d.approverId,
      d.bindingVersion,
      d.definitionHash,
      json(d.input),
      json(d.outputSummary),
      d.status,
      d.code,
      d.durationMs,
      json(d.details),
      toSqlDateTime(d.occurredAt),
      d.instanceId,
      entry.dedupeKey,
      prevHash,
      hash,
    ];
  }
}
