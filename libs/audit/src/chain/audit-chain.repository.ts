import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { isMysql, toSqlDateTime, TransactionRunner } from '@toolgate/database';
import type { EntityManager } from 'typeorm';
import { AUDIT_OPTIONS, type AuditOptions } from '../audit.options.js';
import { GENESIS_HASH } from '../audit-event.js';
import type { AuditEventDraft } from '../audit-fields.js';
import { EVENT_COLUMNS, eventRow } from './event-columns.js';
import { eventHash } from './event-hash.js';

/** A statement that commits in the same transaction as the events (parameterised). */
export interface SqlStatement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/**
 * Rows another lib keeps in step with the trail (a call's record), written in the batch's
 * transaction — built at write time, because only then is the SQL dialect known.
 */
export type Sidecar = (dialect: 'mysql' | 'sqlite') => readonly SqlStatement[];

/** One event to append, with the bookkeeping that makes writes idempotent. */
export interface ChainEntry {
  readonly draft: AuditEventDraft;
  /** A retried write with a key already in the table is dropped, not duplicated. */
  readonly dedupeKey: string | null;
  /** `started`: opens the call. */
  readonly opens: boolean;
  /** A closing event: written only if the call was opened and is not closed yet. */
  readonly closes: boolean;
  /** Runs only if this entry is written (a retry that finds it stored applies nothing twice). */
  readonly sidecar?: Sidecar;
}

/** What became of an entry. */
export type EntryOutcome = 'written' | 'dropped';

const ROWS_PER_INSERT = 400;
const ROW_PLACEHOLDERS = `(${EVENT_COLUMNS.map(() => '?').join(',')})`;
const INSERT_EVENTS = `INSERT INTO audit_events (${EVENT_COLUMNS.join(',')}) VALUES `;

interface HeadRow {
  tenant_id: string;
  seq: string | number;
  head_hash: string;
}

interface KeyRow {
  dedupe_key: string;
  tenant_id: string;
}

/**
 * The dedupe keys a batch must look up: its own, and for closing events the call's start and close
 * — each also in its legacy form (see `presentKeys`).
 */
function keysToCheck(entries: readonly ChainEntry[]): string[] {
  const keys = new Set<string>();
  const add = (key: string) => keys.add(key).add(key.slice(key.indexOf('/') + 1));
  for (const e of entries) {
    if (e.dedupeKey) add(e.dedupeKey);
    if (e.closes && e.draft.callId) {
      add(startedKey(e.draft.tenantId, e.draft.callId));
      add(closedKey(e.draft.tenantId, e.draft.callId));
    }
  }
  return [...keys];
}

/**
 * The stored keys in today's form. Keys written before they were tenant-scoped have no `/` (call
 * ids hold none): read with their row's tenant they are today's key, so a call opened before the
 * upgrade is still closed once, and only by its own tenant.
 */
function presentKeys(rows: readonly KeyRow[]): Set<string> {
  return new Set(
    rows.map((r) => (r.dedupe_key.includes('/') ? r.dedupe_key : tenantDedupeKey(r.tenant_id, r.dedupe_key))),
  );
}

/**
 * Which entries to write. Dropped: a dedupe key already stored (a retry of a write that did
 * commit); a closing event for a call never started or already closed.
 */
function decide(entries: readonly ChainEntry[], present: Set<string>): EntryOutcome[] {
  return entries.map((e) => {
    if (e.dedupeKey && present.has(e.dedupeKey)) return 'dropped';
    if (e.closes) {
      const { tenantId, callId } = e.draft;
      if (!present.has(startedKey(tenantId, callId!)) || present.has(closedKey(tenantId, callId!)))
        return 'dropped';
      present.add(closedKey(tenantId, callId!));
    }
    if (e.dedupeKey) present.add(e.dedupeKey);
    return 'written';
  });
}

/** Statements sent together: one round trip on MySQL (multipleStatements), one by one on SQLite. */
class StatementBatch {
  private readonly sql: string[] = [];
  private readonly params: unknown[] = [];

  add(sql: string, params: readonly unknown[]): void {
    this.sql.push(sql);
    this.params.push(...params);
  }

  async execute(em: EntityManager, mysql: boolean): Promise<void> {
    if (!this.sql.length) return;
    if (mysql) {
      await em.query(this.sql.join(';\n'), this.params);
      return;
    }
    let at = 0;
    for (const statement of this.sql) {
      const count = statement.split('?').length - 1;
      await em.query(statement, this.params.slice(at, at + count));
      at += count;
    }
  }
}

/** Width of `audit_events.dedupe_key`. */
const DEDUPE_KEY_LENGTH = 200;

/**
 * A dedupe key scoped to one tenant: `<tenantId>/<rest>`. Dedupe keys are unique across the
 * table, so a key without its tenant would let one tenant's event suppress another's. Tenant ids
 * hold no `/`, so the scope is unambiguous; a key too long for the column keeps its tenant and
 * folds the rest into its SHA-256.
 * @example tenantDedupeKey('acme', 'c1:started') // 'acme/c1:started'
 */
export function tenantDedupeKey(tenantId: string, rest: string): string {
  const key = `${tenantId}/${rest}`;
  if (key.length <= DEDUPE_KEY_LENGTH) return key;
  return `${tenantId}/${createHash('sha256').update(rest).digest('hex')}`;
}

/** The dedupe key of a call's `started` event. */
export function startedKey(tenantId: string, callId: string): string {
  return tenantDedupeKey(tenantId, `${callId}:started`);
}

/** The dedupe key of a call's closing event (one per call, whichever it is). */
export function closedKey(tenantId: string, callId: string): string {
  return tenantDedupeKey(tenantId, `${callId}:closed`);
}

/**
 * The one place audit rows are written: a batch of events appended to their tenants' chains in
 * one transaction. The chain heads are locked (`SELECT … FOR UPDATE` on MySQL; SQLite serializes
 * writers itself), so gateways sharing a database extend each chain in one order.
 */
@Injectable()
export class AuditChainRepository {
  private readonly chainKey: Buffer;

  constructor(
    private readonly transactions: TransactionRunner,
    @Inject(AUDIT_OPTIONS) options: AuditOptions,
  ) {
    this.chainKey = options.chainKey;
  }

  /** Appends a batch; inside `em` when given (an admin change and its event commit together). */
  append(entries: readonly ChainEntry[], em?: EntityManager): Promise<EntryOutcome[]> {
    if (em) return this.appendIn(em, entries);
    return this.transactions.run((tx) => this.appendIn(tx, entries));
  }

  private async appendIn(em: EntityManager, entries: readonly ChainEntry[]): Promise<EntryOutcome[]> {
    const mysql = isMysql(em);
    const tenants = [...new Set(entries.map((e) => e.draft.tenantId))].sort();
    const keys = keysToCheck(entries);
    let state = await this.readState(em, tenants, keys, mysql);
    if (state.heads.size < tenants.length) {
      // A tenant's first event creates its chain head — only then, because INSERT IGNORE on an
      // existing row takes a shared lock that deadlocks two gateways upgrading it to FOR UPDATE.
      const missing = tenants.filter((t) => !state.heads.has(t));
      await em.query(
        `INSERT ${mysql ? 'IGNORE' : 'OR IGNORE'} INTO audit_chain_heads (tenant_id, seq, head_hash) VALUES ${missing.map(() => '(?,0,?)').join(',')}`,
        missing.flatMap((t) => [t, GENESIS_HASH]),
      );
      state = await this.readState(em, tenants, keys, mysql);
    }
    const outcomes = decide(entries, state.present);

    const heads = state.heads;
    const rows: unknown[][] = [];
    const opened: ChainEntry[] = [];
    const closed: ChainEntry[] = [];
    entries.forEach((entry, i) => {
      if (outcomes[i] !== 'written') return;
      const head = heads.get(entry.draft.tenantId)!;
      const seq = head.seq + 1;
      const hash = eventHash(this.chainKey, head.hash, entry.draft, seq);
      rows.push(eventRow(entry.draft, { seq, prevHash: head.hash, hash, dedupeKey: entry.dedupeKey }));
      heads.set(entry.draft.tenantId, { seq, hash, changed: true });
      if (entry.opens) opened.push(entry);
      if (entry.closes) closed.push(entry);
    });

    const writes = new StatementBatch();
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      const chunk = rows.slice(i, i + ROWS_PER_INSERT);
      writes.add(INSERT_EVENTS + Array(chunk.length).fill(ROW_PLACEHOLDERS).join(','), chunk.flat());
    }
    const callOf = (e: ChainEntry) => `${e.draft.tenantId}/${e.draft.callId}`;
    const closedCalls = new Set(closed.map(callOf));
    const stillOpen = opened.filter((e) => !closedCalls.has(callOf(e)));
    if (stillOpen.length) {
      writes.add(
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
    if (closed.length)
      writes.add(
        `DELETE FROM audit_open_calls WHERE ${closed.map(() => '(tenant_id = ? AND call_id = ?)').join(' OR ')}`,
        closed.flatMap((e) => [e.draft.tenantId, e.draft.callId]),
      );
    entries.forEach((entry, i) => {
      if (outcomes[i] !== 'written' || !entry.sidecar) return;
      for (const st of entry.sidecar(mysql ? 'mysql' : 'sqlite')) writes.add(st.sql, st.params);
    });
    for (const [tenantId, head] of heads) {
      if (head.changed)
        writes.add('UPDATE audit_chain_heads SET seq = ?, head_hash = ? WHERE tenant_id = ?', [
          head.seq,
          head.hash,
          tenantId,
        ]);
    }
    await writes.execute(em, mysql);
    return outcomes;
  }

  /**
   * The locked chain heads of the batch's tenants (in tenant order, so writers never deadlock on
   * them) and which dedupe keys are already stored — in one round trip on MySQL.
   */
  private async readState(em: EntityManager, tenants: string[], keys: string[], mysql: boolean) {
    const heads = `SELECT tenant_id, seq, head_hash FROM audit_chain_heads WHERE tenant_id IN (${tenants.map(() => '?').join(',')}) ORDER BY tenant_id${mysql ? ' FOR UPDATE' : ''}`;
    const dedupe = `SELECT dedupe_key, tenant_id FROM audit_events WHERE dedupe_key IN (${keys.map(() => '?').join(',')})`;
    let headRows: HeadRow[];
    let keyRows: KeyRow[] = [];
    if (mysql && keys.length) {
      [headRows, keyRows] = (await em.query(`${heads}; ${dedupe}`, [...tenants, ...keys])) as [
        HeadRow[],
        KeyRow[],
      ];
    } else {
      headRows = (await em.query(heads, tenants)) as HeadRow[];
      if (keys.length) keyRows = (await em.query(dedupe, keys)) as KeyRow[];
    }
    return {
      heads: new Map(
        headRows.map((r) => [r.tenant_id, { seq: Number(r.seq), hash: r.head_hash, changed: false }]),
      ),
      present: presentKeys(keyRows),
    };
  }
}
