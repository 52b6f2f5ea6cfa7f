import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  fromSqlDateTime,
  isMysql,
  jsonText,
  toSqlDateTime,
  TransactionRunner,
  type WriteStatement,
} from '@toolgate/database';
import type { DataSource } from 'typeorm';
import type { AuditEventRecord } from '../audit-fields.js';
import { toRecord } from '../chain/event-mapping.js';
import { eventsAfter } from '../chain/seq-window.js';
import { AuditEventEntity } from '../entities/audit-event.entity.js';
import type { ApproverEntry, CallRow, NamedPrincipal } from './call-fold.js';
import { pageLanes } from './call-page-lanes.js';

/** A tenant whose chain is ahead of its projection. */
export interface Behind {
  readonly tenantId: string;
  /** The seq projected so far (0: none). */
  readonly projected: number;
}

/** What a batch of projected events changes, written in one transaction with the cursor. */
export interface ProjectedBatch {
  readonly tenantId: string;
  readonly fromSeq: number;
  readonly toSeq: number;
  readonly rows: readonly CallRow[];
  /** The terms of each row in `rows` (replacing the row's old ones). */
  readonly terms: ReadonlyMap<string, readonly string[]>;
  readonly principals: readonly NamedPrincipal[];
}

/** Filters of a page of calls, already resolved to columns and terms (see AuditCallQueries). */
export interface CallPageFilter {
  readonly tenantId?: string;
  /** Column = value conditions; keys are column names from CALL_FILTER_COLUMNS. */
  readonly columns: ReadonlyMap<FilterColumn, string>;
  /** Each group: the call has at least one of these terms. */
  readonly termGroups: readonly (readonly string[])[];
  readonly from?: Date;
  readonly to?: Date;
}

/** The position after the last call of a page: pages run newest first. */
export interface CallCursor {
  readonly requestedAt: Date;
  readonly tenantId: string;
  readonly callId: string;
}

/** Columns a page may be filtered on by equality (each with its own index, tenant first). */
export const CALL_FILTER_COLUMNS = [
  'agent_type',
  'tool',
  'target',
  'face',
  'risk_level',
  'state',
  'status',
  'code',
  'run_id',
  'session_id',
  'call_id',
] as const;
export type FilterColumn = (typeof CALL_FILTER_COLUMNS)[number];

const CALL_COLUMNS = [
  'tenant_id',
  'call_id',
  'agent_type',
  'tool',
  'implementation',
  'risk_level',
  'face',
  'target',
  'input',
  'state',
  'status',
  'code',
  'requester_type',
  'requester_id',
  'approvers',
  'requested_at',
  'started_at',
  'finished_at',
  'duration_ms',
  'run_id',
  'session_id',
  'events',
  'first_seq',
  'last_seq',
] as const;

/** A call a page lane found: its tenant, id and time (the page's order). */
interface PageKey {
  readonly tenantId: string;
  readonly callId: string;
  readonly at: Date;
}

/** The page's order: (requested_at, tenant_id, call_id) descending, as the cursor encodes it. */
const newestFirst = (a: PageKey, b: PageKey): number =>
  b.at.getTime() - a.at.getTime() ||
  (a.tenantId === b.tenantId ? 0 : a.tenantId < b.tenantId ? 1 : -1) ||
  (a.callId === b.callId ? 0 : a.callId < b.callId ? 1 : -1);

/** Lanes per statement (UNION ALL): a page across many tenants takes several statements. */
const LANES_PER_STATEMENT = 32;

/** Rows per INSERT: 24 columns each stays far below either database's parameter limit. */
const ROWS_PER_INSERT = 100;
/** Ids per `IN (…)` list. */
const IDS_PER_LIST = 400;

const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
const marks = (n: number) => Array(n).fill('?').join(',');
const dateOrNull = (d: Date | null) => (d ? toSqlDateTime(d) : null);
/** JSON read back: text on SQLite and on MariaDB (its JSON is LONGTEXT); parsed by some drivers. */
const parsed = (v: unknown): unknown => (typeof v === 'string' ? (JSON.parse(v) as unknown) : (v ?? null));

function rowValues(r: CallRow): unknown[] {
  return [
    r.tenantId,
    r.callId,
    r.agentType,
    r.tool,
    r.implementation,
    r.riskLevel,
    r.face,
    r.target,
    jsonText(r.input),
    r.state,
    r.status,
    r.code,
    r.requesterType,
    r.requesterId,
    jsonText(r.approvers),
    toSqlDateTime(r.requestedAt),
    dateOrNull(r.startedAt),
    dateOrNull(r.finishedAt),
    r.durationMs,
    r.runId,
    r.sessionId,
    r.events,
    r.firstSeq,
    r.lastSeq,
  ];
}

function fromRow(raw: Record<string, unknown>): CallRow {
  const s = (k: string) => (raw[k] === null || raw[k] === undefined ? null : String(raw[k]));
  const date = (k: string) => (raw[k] === null || raw[k] === undefined ? null : fromSqlDateTime(raw[k]));
  return {
    tenantId: String(raw.tenant_id),
    callId: String(raw.call_id),
    agentType: s('agent_type'),
    tool: s('tool'),
    implementation: s('implementation'),
    riskLevel: s('risk_level'),
    face: s('face') as CallRow['face'],
    target: s('target'),
    input: parsed(raw.input),
    state: String(raw.state) as CallRow['state'],
    status: s('status') as CallRow['status'],
    code: s('code'),
    requesterType: s('requester_type') as CallRow['requesterType'],
    requesterId: s('requester_id'),
    approvers: (parsed(raw.approvers) as ApproverEntry[] | null) ?? [],
    requestedAt: fromSqlDateTime(raw.requested_at),
    startedAt: date('started_at'),
    finishedAt: date('finished_at'),
    durationMs: raw.duration_ms === null || raw.duration_ms === undefined ? null : Number(raw.duration_ms),
    runId: s('run_id'),
    sessionId: s('session_id'),
    events: Number(raw.events),
    firstSeq: Number(raw.first_seq),
    lastSeq: Number(raw.last_seq),
  };
}

/** The projection moved on meanwhile (another gateway took the batch): nothing was written. */
export class StaleProjectionError extends Error {
  constructor(tenantId: string) {
    super(`the call projection of ${tenantId} moved on meanwhile`);
    this.name = 'StaleProjectionError';
  }
}

/**
 * The only way to the call projection's tables (`audit_calls`, `audit_call_terms`,
 * `audit_principals`, `audit_call_cursors`), and the projector's read of the chain.
 */
@Injectable()
export class AuditCallsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {}

  /** Tenants whose chain head is past their projection cursor (or that have no cursor yet). */
  /** How far a tenant's chain is projected (0: not yet). */
  async projectedThrough(tenantId: string): Promise<number> {
    const rows = (await this.dataSource.query('SELECT seq FROM audit_call_cursors WHERE tenant_id = ?', [
      tenantId,
    ])) as { seq: string | number }[];
    return Number(rows[0]?.seq ?? 0);
  }

  async behind(): Promise<Behind[]> {
    const rows = (await this.dataSource.query(
      `SELECT h.tenant_id AS tenant_id, COALESCE(c.seq, 0) AS projected
         FROM audit_chain_heads h LEFT JOIN audit_call_cursors c ON c.tenant_id = h.tenant_id
        WHERE c.seq IS NULL OR c.seq < h.seq`,
    )) as { tenant_id: string; projected: string | number }[];
    return rows.map((r) => ({ tenantId: r.tenant_id, projected: Number(r.projected) }));
  }

  /**
   * Projects the next events of a tenant's chain after `fromSeq` (at most `limit`) in one
   * transaction: the events and the stored rows of their calls are read in it, `fold` turns them
   * into a batch, and the batch is written with the cursor moved from `fromSeq` to its last seq.
   * Reading inside the transaction matters on SQLite, whose one connection would otherwise let a
   * read see another flow's uncommitted events. Answers the events projected (none: caught up);
   * StaleProjectionError (nothing written) when the cursor is no longer at `fromSeq`.
   */
  async projectNext(
    tenantId: string,
    fromSeq: number,
    limit: number,
    fold: (
      events: readonly AuditEventRecord[],
      stored: ReadonlyMap<string, CallRow>,
    ) => Omit<ProjectedBatch, 'tenantId' | 'fromSeq' | 'toSeq'>,
  ): Promise<readonly AuditEventRecord[]> {
    const mysql = isMysql(this.dataSource);
    await this.dataSource.query(
      `INSERT ${mysql ? 'IGNORE' : 'OR IGNORE'} INTO audit_call_cursors (tenant_id, seq) VALUES (?, 0)`,
      [tenantId],
    );
    return this.transactions.run(async (em) => {
      const events = (await eventsAfter(em.getRepository(AuditEventEntity), tenantId, fromSeq, limit)).map(
        toRecord,
      );
      if (!events.length) return events;
      const callIds = [...new Set(events.flatMap((e) => (e.callId ? [e.callId] : [])))];
      const stored = new Map<string, CallRow>();
      for (const ids of chunks(callIds, IDS_PER_LIST)) {
        const rows = (await em.query(
          `SELECT * FROM audit_calls WHERE tenant_id = ? AND call_id IN (${marks(ids.length)})`,
          [tenantId, ...ids],
        )) as Record<string, unknown>[];
        for (const r of rows) stored.set(String(r.call_id), fromRow(r));
      }
      const batch: ProjectedBatch = { tenantId, fromSeq, toSeq: events.at(-1)!.seq, ...fold(events, stored) };
      const [moved] = await this.transactions.writeIn(em, [
        {
          sql: 'UPDATE audit_call_cursors SET seq = ? WHERE tenant_id = ? AND seq = ?',
          params: [batch.toSeq, tenantId, fromSeq],
        },
      ]);
      if (moved !== 1) throw new StaleProjectionError(tenantId);
      const statements = this.batchStatements(batch);
      if (statements.length) await this.transactions.writeIn(em, statements);
      return events;
    });
  }

  private batchStatements(batch: ProjectedBatch): WriteStatement[] {
    const t = batch.tenantId;
    const statements: WriteStatement[] = [];
    const ids = batch.rows.map((r) => r.callId);
    for (const part of chunks(ids, IDS_PER_LIST)) {
      statements.push(
        {
          sql: `DELETE FROM audit_calls WHERE tenant_id = ? AND call_id IN (${marks(part.length)})`,
          params: [t, ...part],
        },
        {
          sql: `DELETE FROM audit_call_terms WHERE tenant_id = ? AND call_id IN (${marks(part.length)})`,
          params: [t, ...part],
        },
      );
    }
    for (const rows of chunks(batch.rows, ROWS_PER_INSERT)) {
      statements.push({
        sql: `INSERT INTO audit_calls (${CALL_COLUMNS.join(',')}) VALUES ${rows.map(() => `(${marks(CALL_COLUMNS.length)})`).join(',')}`,
        params: rows.flatMap(rowValues),
      });
    }
    const terms = batch.rows.flatMap((r) =>
      (batch.terms.get(r.callId) ?? []).map((term) => [t, r.callId, term, toSqlDateTime(r.requestedAt)]),
    );
    for (const part of chunks(terms, ROWS_PER_INSERT * 4)) {
      statements.push({
        sql: `INSERT INTO audit_call_terms (tenant_id, call_id, term, requested_at) VALUES ${part.map(() => '(?,?,?,?)').join(',')}`,
        params: part.flat(),
      });
    }
    // The newest name the trail states for a principal wins (a batch lists them in chain order).
    const principals = new Map(batch.principals.map((p) => [`${p.tenantId}/${p.id}`, p]));
    for (const p of principals.values()) {
      statements.push(
        {
          sql: 'DELETE FROM audit_principals WHERE tenant_id = ? AND principal_id = ?',
          params: [p.tenantId, p.id],
        },
        {
          sql: 'INSERT INTO audit_principals (tenant_id, principal_id, principal_type, name, name_key, seq) VALUES (?,?,?,?,?,?)',
          params: [p.tenantId, p.id, p.type, p.name.slice(0, 200), nameKey(p.name), p.seq],
        },
      );
    }
    return statements;
  }

  /** Drops a tenant's projection (every tenant's when undefined): the projector then rebuilds it. */
  async reset(tenantId?: string): Promise<void> {
    const where = tenantId === undefined ? '' : ' WHERE tenant_id = ?';
    const params = tenantId === undefined ? [] : [tenantId];
    await this.transactions.run((em) =>
      this.transactions.writeIn(
        em,
        ['audit_call_cursors', 'audit_calls', 'audit_call_terms', 'audit_principals'].map((table) => ({
          sql: `DELETE FROM ${table}${where}`,
          params,
        })),
      ),
    );
  }

  /**
   * One page of calls, newest first, after `after` (exclusive): the keys of each lane's newest
   * matches (call-page-lanes.ts, ADR 051), merged here, then the rows of the page's calls only.
   */
  async page(filter: CallPageFilter, limit: number, after?: CallCursor): Promise<CallRow[]> {
    const tenants = filter.tenantId !== undefined ? [filter.tenantId] : await this.projectedTenants();
    const lanes = pageLanes(filter, tenants, limit, isMysql(this.dataSource), after);
    const keys = new Map<string, PageKey>();
    for (const part of chunks(lanes, LANES_PER_STATEMENT)) {
      const sql =
        part.length === 1
          ? part[0]!.sql
          : part.map((l, i) => `SELECT * FROM (${l.sql}) l${i}`).join(' UNION ALL ');
      const rows = (await this.dataSource.query(
        sql,
        part.flatMap((l) => l.params),
      )) as { tenant_id: string; call_id: string; requested_at: unknown }[];
      for (const r of rows) {
        const key = {
          tenantId: String(r.tenant_id),
          callId: String(r.call_id),
          at: fromSqlDateTime(r.requested_at),
        };
        keys.set(`${key.tenantId}/${key.callId}`, key);
      }
    }
    const newest = [...keys.values()].sort(newestFirst).slice(0, Math.trunc(limit));
    return this.rowsOf(newest);
  }

  /** Tenants with a projection (every tenant whose calls are in `audit_calls`). */
  private async projectedTenants(): Promise<string[]> {
    const rows = (await this.dataSource.query('SELECT tenant_id FROM audit_call_cursors')) as {
      tenant_id: string;
    }[];
    return rows.map((r) => String(r.tenant_id));
  }

  /** The rows of these calls, in the order given (one that vanished meanwhile left out). */
  private async rowsOf(keys: readonly PageKey[]): Promise<CallRow[]> {
    if (!keys.length) return [];
    const byTenant = new Map<string, string[]>();
    for (const k of keys) byTenant.set(k.tenantId, [...(byTenant.get(k.tenantId) ?? []), k.callId]);
    const where = [...byTenant.values()].map(
      (ids) => `(tenant_id = ? AND call_id IN (${marks(ids.length)}))`,
    );
    const rows = (await this.dataSource.query(
      `SELECT * FROM audit_calls WHERE ${where.join(' OR ')}`,
      [...byTenant].flatMap(([tenantId, ids]) => [tenantId, ...ids]),
    )) as Record<string, unknown>[];
    const found = new Map(rows.map((r) => [`${String(r.tenant_id)}/${String(r.call_id)}`, fromRow(r)]));
    return keys.flatMap((k) => found.get(`${k.tenantId}/${k.callId}`) ?? []);
  }

  /** Ids of the principals with this name (any case) in the given tenants (every tenant: undefined). */
  async idsNamed(name: string, tenants?: readonly string[]): Promise<string[]> {
    const inTenants = tenants ? ` AND tenant_id IN (${marks(tenants.length)})` : '';
    const rows = (await this.dataSource.query(
      `SELECT DISTINCT principal_id FROM audit_principals WHERE name_key = ?${inTenants}`,
      [nameKey(name), ...(tenants ?? [])],
    )) as { principal_id: string }[];
    return rows.map((r) => r.principal_id);
  }

  /** Names of principals by id, per tenant (`<tenant>/<id>` → name). */
  async namesOf(ids: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const part of chunks([...new Set(ids)], IDS_PER_LIST)) {
      const rows = (await this.dataSource.query(
        `SELECT tenant_id, principal_id, name FROM audit_principals WHERE principal_id IN (${marks(part.length)})`,
        part,
      )) as { tenant_id: string; principal_id: string; name: string }[];
      for (const r of rows) out.set(`${r.tenant_id}/${r.principal_id}`, r.name);
    }
    return out;
  }

  /** The named principals of a tenant (every tenant: undefined), by name. */
  async principals(
    tenants: readonly string[] | undefined,
    limit: number,
  ): Promise<{ tenantId: string; type: 'api_key' | 'user'; id: string; name: string }[]> {
    const where = tenants ? ` WHERE tenant_id IN (${marks(tenants.length)})` : '';
    const rows = (await this.dataSource.query(
      `SELECT tenant_id, principal_type, principal_id, name FROM audit_principals${where}
        ORDER BY tenant_id, name_key, principal_id LIMIT ${Math.trunc(limit)}`,
      tenants ?? [],
    )) as { tenant_id: string; principal_type: string; principal_id: string; name: string }[];
    return rows.map((r) => ({
      tenantId: r.tenant_id,
      type: r.principal_type === 'user' ? 'user' : 'api_key',
      id: r.principal_id,
      name: r.name,
    }));
  }
}

/** What a search by name compares: the name trimmed and folded to lower case. */
export function nameKey(name: string): string {
  return name.trim().toLowerCase().slice(0, 200);
}
