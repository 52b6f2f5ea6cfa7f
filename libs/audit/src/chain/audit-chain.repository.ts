import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  isMysql,
  isRetryableTransactionError,
  isUniqueViolation,
  StatementRefusedError,
  toSqlDateTime,
  TransactionRunner,
} from '@toolgate/database';
import type { DataSource, EntityManager, EntitySubscriberInterface } from 'typeorm';
import { AUDIT_OPTIONS, linkKeysOf, type AuditOptions } from '../audit.options.js';
import { GENESIS_HASH } from '../audit-event.js';
import type { AuditEventDraft } from '../audit-fields.js';
import { ChainHeadCache, type KnownHead } from './chain-head-cache.js';
import { EVENT_COLUMNS, eventRow, insertEventsSql } from './event-columns.js';
import { linkHash, linkVersionFor, type LinkKeys } from './event-hash.js';

/** A statement that commits in the same transaction as the events (parameterised). */
export interface SqlStatement {
  readonly sql: string;
  readonly params: readonly unknown[];
  /** Rolls the batch back unless it changes a row (see `WriteStatement.guard`). */
  readonly guard?: true;
}

/**
 * Rows another lib keeps in step with the trail (a call's record), written in the batch's
 * transaction — built at write time, because only then is the SQL dialect known.
 */
export type Sidecar = ((dialect: 'mysql' | 'sqlite') => readonly SqlStatement[]) & {
  /**
   * Holds a guarded statement (`WriteStatement.guard`: an approved call's claim): its batch is its
   * own, so that a refusal rolls back no other caller's events (ADR 049).
   */
  readonly guarded?: true;
};

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

/** A batch's rows and statements, built from the heads it extends. */
interface BuiltBatch {
  /** Event inserts, open-call bookkeeping and sidecars, in that order. */
  readonly statements: SqlStatement[];
  /** The batch's tenants' heads after it, for those it extends. */
  readonly heads: Map<string, KnownHead>;
}

/** A batch built before its turn, on the heads the batches queued before it will leave (ADR 017). */
interface EarlyBatch {
  /** The heads it extends: sent only if each is its tenant's committed head when its turn comes. */
  readonly start: ReadonlyMap<string, KnownHead>;
  readonly built: BuiltBatch;
}

const sameHead = (a: KnownHead | undefined, b: KnownHead | undefined) =>
  a !== undefined && b !== undefined && a.seq === b.seq && a.hash === b.hash;

/** Conflicts in a row before a batch stops guessing and takes the chain-head lock. */
const OPTIMISTIC_ATTEMPTS = 2;

/** The unique key whose violation means another writer took the seq first (ADR 017). */
const SEQ_KEY = 'uq_audit_tenant_seq';

function isSeqConflict(err: unknown): boolean {
  if (!isUniqueViolation(err)) return false;
  const e = err as { message?: string; driverError?: { sqlMessage?: string } };
  return `${e.driverError?.sqlMessage ?? ''} ${e.message ?? ''}`.includes(SEQ_KEY);
}

/**
 * The one place audit rows are written: a batch of events appended to their tenants' chains in
 * one transaction, `UNIQUE(tenant_id, seq)` keeping each chain a line.
 *
 * MySQL (ADR 017): optimistic first. The batch is linked to this process's view of the heads and
 * sent in one round trip (START, head update, inserts, COMMIT); a seq another gateway took first
 * makes it fail whole, and it is rebuilt on the reloaded heads. The locked path (`SELECT … FOR
 * UPDATE` of the heads, dedupe keys read first) remains for what the view cannot decide: a chain
 * without a head row, a closing event whose start this process did not see committed, a dedupe key
 * already stored, repeated conflicts, and writes inside a caller's transaction.
 *
 * SQLite has one writer (the transaction queue): the locked path, whose reads are local.
 */
@Injectable()
export class AuditChainRepository {
  private readonly keys: LinkKeys;
  /** The link every event gets: HMAC-SHA256 (v2) or HMAC-SM3 (v3), by `audit.cryptoSuite`. */
  private readonly linkVersion: 2 | 3;
  private readonly mysql: boolean;
  private readonly view = new ChainHeadCache();
  /**
   * Heads written inside callers' transactions, keyed by their query runner: the view takes them
   * in once (and only if) the transaction commits, so the next optimistic append needs no read of
   * the head first. A rollback (of the transaction or of a savepoint in it) drops them: the view
   * then reads the head again.
   */
  private readonly uncommitted = new WeakMap<object, Map<string, KnownHead>>();
  private readonly logger = new Logger(AuditChainRepository.name);
  /**
   * Per tenant with batches queued: the head its queued batches leave if they all commit as built,
   * what the next batch is built on ahead of its turn; null while unknown (a batch was built at its
   * turn, or failed), until a batch built at its turn is the last in line again.
   */
  private readonly ahead = new Map<string, KnownHead | null>();
  /** Per tenant: this process's batches queued or being written (see `exclusive`). */
  private readonly queued = new Map<string, number>();

  constructor(
    private readonly transactions: TransactionRunner,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(AUDIT_OPTIONS) options: AuditOptions,
  ) {
    this.keys = linkKeysOf(options);
    this.linkVersion = linkVersionFor(options.cryptoSuite);
    this.mysql = isMysql(dataSource);
    if (this.mysql) dataSource.subscribers.push(this.commitWatcher());
  }

  private commitWatcher(): EntitySubscriberInterface {
    return {
      afterTransactionCommit: ({ queryRunner }) => {
        const heads = this.uncommitted.get(queryRunner);
        // A savepoint's release is not the commit: wait for the outermost one.
        if (!heads || queryRunner.isTransactionActive) return;
        this.uncommitted.delete(queryRunner);
        for (const [tenantId, head] of heads) this.view.setHead(tenantId, head);
      },
      afterTransactionRollback: ({ queryRunner }) => {
        this.uncommitted.delete(queryRunner);
      },
    };
  }

  /**
   * Appends a batch; inside `em` when given (an admin change and its event commit together —
   * locked, since the transaction is the caller's).
   */
  append(entries: readonly ChainEntry[], em?: EntityManager): Promise<EntryOutcome[]> {
    const tenants = tenantsOf(entries);
    if (em) {
      // Commits (or not) after this returns: the view learns the heads it leaves from the commit.
      this.view.forget(tenants);
      return this.appendLocked(em, entries).then((r) => {
        this.headsOnCommit(em, r.heads);
        return r.outcomes;
      });
    }
    // While the batches before it are written, this one is hashed and its SQL built on the heads
    // they will leave; it is sent only once they have committed those heads (ADR 017).
    const early = this.mysql ? this.buildEarly(entries, tenants) : undefined;
    for (const t of tenants) this.queued.set(t, (this.queued.get(t) ?? 0) + 1);
    return this.view.exclusive(tenants, async () => {
      try {
        return await this.appendOwn(entries, tenants, early);
      } finally {
        for (const t of tenants) {
          const n = this.queued.get(t)! - 1;
          if (n) {
            this.queued.set(t, n);
          } else {
            this.queued.delete(t);
            this.ahead.delete(t);
          }
        }
      }
    });
  }

  /**
   * The read of an append made inside a caller's `readThenWrite` (an approval decision and its
   * event): the tenants' chain heads, locked on MySQL, read in the caller's first packet with its
   * own reads. `lockedWrites` then links the events to them.
   */
  headsRead(tenants: readonly string[], dialect: 'mysql' | 'sqlite'): SqlStatement {
    return {
      sql: `SELECT tenant_id, seq, head_hash FROM audit_chain_heads WHERE tenant_id IN (${tenants.map(() => '?').join(',')}) ORDER BY tenant_id${dialect === 'mysql' ? ' FOR UPDATE' : ''}`,
      params: [...tenants],
    };
  }

  /**
   * The writes of such an append, linked to the heads `headsRead` answered: events, then the head
   * moves (the locked path's order). Only for events that neither open nor close a call nor carry
   * a dedupe key (nothing to look up first). Null when a tenant has no head row yet: the caller
   * takes the ordinary path. The view forgets the heads until `committed` tells it the new ones.
   */
  lockedWrites(
    entries: readonly ChainEntry[],
    headRows: readonly Record<string, unknown>[],
    dialect: 'mysql' | 'sqlite',
  ): { writes: SqlStatement[]; heads: Map<string, KnownHead> } | null {
    if (entries.some((e) => e.dedupeKey || e.opens || e.closes))
      throw new Error('lockedWrites takes events without dedupe keys only');
    const tenants = tenantsOf(entries);
    this.view.forget(tenants);
    const start = new Map(
      (headRows as unknown as HeadRow[]).map((r) => [r.tenant_id, { seq: Number(r.seq), hash: r.head_hash }]),
    );
    if (tenants.some((t) => !start.has(t))) return null;
    const built = this.build(
      entries,
      entries.map((): EntryOutcome => 'written'),
      start,
      dialect,
    );
    return {
      writes: [
        ...built.statements,
        ...[...built.heads].map(([tenantId, head]) => ({
          sql: 'UPDATE audit_chain_heads SET seq = ?, head_hash = ? WHERE tenant_id = ?',
          params: [head.seq, head.hash, tenantId],
        })),
      ],
      heads: built.heads,
    };
  }

  /** The caller's transaction with `lockedWrites` committed: the view takes in the heads it left. */
  committed(heads: ReadonlyMap<string, KnownHead>): void {
    for (const [tenantId, head] of heads) this.view.setHead(tenantId, head);
  }

  /** The heads queued batches of `tenants` leave are unknown: the next one is built at its turn. */
  private unknownAhead(tenants: readonly string[]): void {
    for (const t of tenants) if (this.ahead.has(t)) this.ahead.set(t, null);
  }

  private headsOnCommit(em: EntityManager, heads: ReadonlyMap<string, KnownHead>): void {
    const runner = em.queryRunner;
    if (!this.mysql || !runner?.isTransactionActive) return;
    const pending = this.uncommitted.get(runner) ?? new Map<string, KnownHead>();
    for (const [tenantId, head] of heads) pending.set(tenantId, head);
    this.uncommitted.set(runner, pending);
  }

  /**
   * Builds a batch on the heads the batches queued before it leave, or not at all when one of them
   * is not known yet (then neither are the heads this one leaves).
   */
  private buildEarly(entries: readonly ChainEntry[], tenants: readonly string[]): EarlyBatch | undefined {
    const start = new Map<string, KnownHead>();
    for (const t of tenants) {
      const head = this.ahead.has(t) ? this.ahead.get(t) : this.view.head(t);
      if (!head) {
        for (const u of tenants) this.ahead.set(u, null);
        return undefined;
      }
      start.set(t, head);
    }
    const built = this.build(
      entries,
      entries.map((): EntryOutcome => 'written'),
      start,
      'mysql',
    );
    for (const [t, head] of built.heads) this.ahead.set(t, head);
    return { start, built };
  }

  private async appendOwn(
    entries: readonly ChainEntry[],
    tenants: string[],
    early: EarlyBatch | undefined,
  ): Promise<EntryOutcome[]> {
    if (this.mysql) {
      for (let attempt = 1; attempt <= OPTIMISTIC_ATTEMPTS; attempt++) {
        if (!(await this.knowsHeads(tenants)) || !this.closesOnlyKnownCalls(entries)) break;
        // Built early on heads that are now committed: sent as built. Otherwise built now.
        const prebuilt =
          attempt === 1 && early && tenants.every((t) => sameHead(this.view.head(t), early.start.get(t)))
            ? early.built
            : undefined;
        try {
          return await this.appendOptimistic(entries, tenants, prebuilt);
        } catch (err) {
          // The batches queued after it were built on the heads it would have left.
          this.unknownAhead(tenants);
          // A guard refused (a claim another gateway won): everything else would have committed,
          // so the view still holds the committed heads.
          if (err instanceof StatementRefusedError) throw err;
          this.view.forget(tenants);
          // A Galera certification conflict (ADR 042): a gateway on another node committed a batch
          // of this chain first, and this one was rolled back whole at COMMIT (a head row's move is
          // in every batch, so two can never both commit). Reload and rebuild, as for a seq taken.
          if (isRetryableTransactionError(err)) continue;
          // Another gateway took a seq: reload and rebuild. A dedupe key already stored (a retry
          // of a write that did commit): the locked path drops it. Anything else: the caller's.
          if (!isUniqueViolation(err)) throw err;
          if (!isSeqConflict(err)) break;
        }
      }
    }
    this.unknownAhead(tenants);
    try {
      const { outcomes, heads } = await this.transactions.run((tx) => this.appendLocked(tx, entries));
      this.remember(entries, outcomes, heads);
      return outcomes;
    } catch (err) {
      this.view.forget(tenants);
      throw err;
    }
  }

  /** Whether the view holds every tenant's head, reading the missing ones (committed, unlocked). */
  private async knowsHeads(tenants: readonly string[]): Promise<boolean> {
    const missing = tenants.filter((t) => !this.view.head(t));
    if (!missing.length) return true;
    const rows = (await this.dataSource.query(
      `SELECT tenant_id, seq, head_hash FROM audit_chain_heads WHERE tenant_id IN (${missing.map(() => '?').join(',')})`,
      missing,
    )) as HeadRow[];
    for (const r of rows) this.view.setHead(r.tenant_id, { seq: Number(r.seq), hash: r.head_hash });
    return rows.length === missing.length;
  }

  /** Whether every closing event's call was opened earlier in the batch or seen opened here. */
  private closesOnlyKnownCalls(entries: readonly ChainEntry[]): boolean {
    const openedHere = new Set<string>();
    for (const e of entries) {
      const key = e.draft.callId ? startedKey(e.draft.tenantId, e.draft.callId) : null;
      if (e.opens && key) openedHere.add(key);
      if (e.closes && (!key || (!openedHere.has(key) && !this.view.isOpen(key)))) return false;
    }
    return true;
  }

  /**
   * One round trip: each head row moved from the seq the view knows (first, so the lock order is
   * the locked path's: head, then events), then the rows. A seq taken meanwhile fails the insert
   * on `UNIQUE(tenant_id, seq)` and the transaction rolls back whole; a closing event closes a call
   * once because its dedupe key is unique too.
   */
  private async appendOptimistic(
    entries: readonly ChainEntry[],
    tenants: string[],
    prebuilt: BuiltBatch | undefined,
  ): Promise<EntryOutcome[]> {
    const outcomes = entries.map((): EntryOutcome => 'written');
    const start = new Map(tenants.map((t) => [t, this.view.head(t)!]));
    let built = prebuilt;
    if (!built) {
      built = this.build(entries, outcomes, start, 'mysql');
      // The last in line: the next batch can be built on what this one leaves. Otherwise those
      // queued after it were built on other heads, or not at all.
      const last = tenants.every((t) => this.queued.get(t) === 1);
      for (const [t, head] of built.heads) this.ahead.set(t, last ? head : null);
    }
    const moves = [...built.heads].map(([tenantId, head]) => ({
      sql: 'UPDATE audit_chain_heads SET seq = ?, head_hash = ? WHERE tenant_id = ? AND seq = ? AND head_hash = ?',
      params: [head.seq, head.hash, tenantId, start.get(tenantId)!.seq, start.get(tenantId)!.hash],
    }));
    const changed = await this.transactions.writeAll([...moves, ...built.statements]);
    this.remember(entries, outcomes, built.heads);
    if (moves.some((_, i) => changed[i] !== 1)) {
      // Committed, linked and unique, but the head row did not hold the event they extend: it was
      // moved or edited outside the gateway (a writer of the gateway would have taken the seq
      // first). Verification reports the chain against it; the view starts over.
      this.view.forget(tenants);
      this.unknownAhead(tenants);
      this.logger.error(`audit chain head row of ${tenants.join(', ')} did not match its newest event`);
    }
    return outcomes;
  }

  /** Takes in what a committed batch changed: its heads, the calls it opened and closed. */
  private remember(
    entries: readonly ChainEntry[],
    outcomes: readonly EntryOutcome[],
    heads: ReadonlyMap<string, KnownHead>,
  ): void {
    for (const [tenantId, head] of heads) this.view.setHead(tenantId, head);
    entries.forEach((e, i) => {
      if (!e.draft.callId) return;
      const key = startedKey(e.draft.tenantId, e.draft.callId);
      // A dropped start was stored before: the call is open (or closed, which its close drops).
      if (e.opens) this.view.markOpen(key);
      if (e.closes && outcomes[i] === 'written') this.view.markClosed(key);
    });
  }

  private async appendLocked(
    em: EntityManager,
    entries: readonly ChainEntry[],
  ): Promise<{ outcomes: EntryOutcome[]; heads: Map<string, KnownHead> }> {
    const mysql = isMysql(em);
    const tenants = tenantsOf(entries);
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
    const built = this.build(entries, outcomes, state.heads, mysql ? 'mysql' : 'sqlite');
    // One round trip on MySQL (multipleStatements), one by one on SQLite.
    await this.transactions.writeIn(em, [
      ...built.statements,
      ...[...built.heads].map(([tenantId, head]) => ({
        sql: 'UPDATE audit_chain_heads SET seq = ?, head_hash = ? WHERE tenant_id = ?',
        params: [head.seq, head.hash, tenantId],
      })),
    ]);
    return { outcomes, heads: built.heads };
  }

  /**
   * Links the entries to be written to `from` (the heads they extend) and builds their
   * statements: event rows, open-call rows, sidecars.
   */
  private build(
    entries: readonly ChainEntry[],
    outcomes: readonly EntryOutcome[],
    from: ReadonlyMap<string, KnownHead>,
    dialect: 'mysql' | 'sqlite',
  ): BuiltBatch {
    const heads = new Map<string, KnownHead>();
    const rows: unknown[][] = [];
    const opened: ChainEntry[] = [];
    const closed: ChainEntry[] = [];
    entries.forEach((entry, i) => {
      if (outcomes[i] !== 'written') return;
      const tenantId = entry.draft.tenantId;
      const head = heads.get(tenantId) ?? from.get(tenantId)!;
      const seq = head.seq + 1;
      const hash = linkHash(this.keys, this.linkVersion, head.hash, entry.draft, seq);
      rows.push(eventRow(entry.draft, { seq, prevHash: head.hash, hash, dedupeKey: entry.dedupeKey }));
      heads.set(tenantId, { seq, hash });
      if (entry.opens) opened.push(entry);
      if (entry.closes) closed.push(entry);
    });

    const statements: SqlStatement[] = [];
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      const chunk = rows.slice(i, i + ROWS_PER_INSERT);
      // MySQL: the values in place (`insertEventsSql`), rather than thousands of `?` for the
      // driver to fill in a pass over the whole statement.
      statements.push(
        dialect === 'mysql'
          ? { sql: insertEventsSql(chunk), params: [] }
          : {
              sql: INSERT_EVENTS + Array(chunk.length).fill(ROW_PLACEHOLDERS).join(','),
              params: chunk.flat(),
            },
      );
    }
    const callOf = (e: ChainEntry) => `${e.draft.tenantId}/${e.draft.callId}`;
    const closedCalls = new Set(closed.map(callOf));
    const openedCalls = new Set(opened.map(callOf));
    const stillOpen = opened.filter((e) => !closedCalls.has(callOf(e)));
    // A call opened and closed in this batch never had its row: nothing to delete (ADR 043).
    const closedEarlier = closed.filter((e) => !openedCalls.has(callOf(e)));
    if (stillOpen.length)
      statements.push({
        sql: `INSERT INTO audit_open_calls (call_id, tenant_id, tool, instance_id, started_at) VALUES ${stillOpen.map(() => '(?,?,?,?,?)').join(',')}`,
        params: stillOpen.flatMap((e) => [
          e.draft.callId,
          e.draft.tenantId,
          e.draft.tool,
          e.draft.instanceId,
          toSqlDateTime(e.draft.occurredAt),
        ]),
      });
    if (closedEarlier.length)
      statements.push({
        sql: `DELETE FROM audit_open_calls WHERE ${closedEarlier.map(() => '(tenant_id = ? AND call_id = ?)').join(' OR ')}`,
        params: closedEarlier.flatMap((e) => [e.draft.tenantId, e.draft.callId]),
      });
    entries.forEach((entry, i) => {
      if (outcomes[i] === 'written' && entry.sidecar) statements.push(...entry.sidecar(dialect));
    });
    return { statements, heads };
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
      heads: new Map(headRows.map((r) => [r.tenant_id, { seq: Number(r.seq), hash: r.head_hash }])),
      present: presentKeys(keyRows),
    };
  }
}

/** A batch's tenants, sorted (the order heads are locked in). */
function tenantsOf(entries: readonly ChainEntry[]): string[] {
  return [...new Set(entries.map((e) => e.draft.tenantId))].sort();
}
