import { toSqlDateTime } from '@toolgate/database';
import type { CallCursor, CallPageFilter, FilterColumn } from './audit-calls.repository.js';

/**
 * How a page of calls is read (ADR 051): as "lanes", each one index range read newest first and
 * stopped after `limit` entries, merged by the caller. A lane is one tenant, and when the filter
 * has terms, one term of them. Why not one statement over `audit_calls`:
 *
 * - every index of the projection leads with the tenant, so a page across tenants (a platform
 *   auditor's) had none that gives its order: MariaDB sorted every call row for each page;
 * - `(tenant_id, call_id) IN (SELECT … FROM audit_call_terms …)` was run as a scan of the calls in
 *   time order, each looked up among the terms (or a sort of all of them): a target that few calls
 *   have cost a pass over all of them.
 *
 * A lane of a tenant and a column filter reads that column's index (tenant, column, requested_at,
 * call_id) from the newest entry; a lane of a term reads the terms' index (tenant, term,
 * requested_at, call_id) the same way and joins each entry to its call row (the term table first:
 * STRAIGHT_JOIN, CROSS JOIN on SQLite) for the column filters. A lane reads at most `limit` entries
 * that match; one whose index holds nothing more reads one.
 */
export interface Lane {
  readonly sql: string;
  readonly params: unknown[];
}

/** The indexes of the column filters (migration 1765400300000), each (tenant, column, requested_at, call_id). */
const INDEX_OF: Partial<Record<FilterColumn, string>> = {
  agent_type: 'idx_audit_calls_agent',
  tool: 'idx_audit_calls_tool',
  target: 'idx_audit_calls_target',
  face: 'idx_audit_calls_face',
  risk_level: 'idx_audit_calls_risk',
  state: 'idx_audit_calls_state',
  status: 'idx_audit_calls_status',
  code: 'idx_audit_calls_code',
  run_id: 'idx_audit_calls_run',
  session_id: 'idx_audit_calls_session',
};

/**
 * Indexes of a lead column together with a second one (migration 1765730000000): used when the lead
 * is the lane's most selective column and the second is filtered too (a status no call of the tool
 * has reads nothing, where the tool's index reads every call of the tool).
 */
const PAIR_INDEX_OF: Partial<
  Record<FilterColumn, { readonly second: FilterColumn; readonly index: string }>
> = {
  tool: { second: 'status', index: 'idx_audit_calls_tool_status' },
};

const marks = (n: number) => Array(n).fill('?').join(',');

/**
 * The lanes of a page: one per tenant in `tenants` (the filter's, or every projected one), times
 * one per term of the filter's driving term group (the group with the fewest terms).
 */
export function pageLanes(
  filter: CallPageFilter,
  tenants: readonly string[],
  limit: number,
  mysql: boolean,
  after?: CallCursor,
): Lane[] {
  const groups = [...filter.termGroups].sort((a, b) => a.length - b.length);
  const [driving, ...others] = groups;
  const lanes: Lane[] = [];
  for (const tenantId of tenants)
    for (const term of driving ?? [undefined])
      lanes.push(lane(filter, tenantId, term, others, limit, mysql, after));
  return lanes;
}

function lane(
  filter: CallPageFilter,
  tenantId: string,
  term: string | undefined,
  otherGroups: readonly (readonly string[])[],
  limit: number,
  mysql: boolean,
  after?: CallCursor,
): Lane {
  // `k` is the table whose index gives the order: the terms (a term lane) or the calls.
  const k = term === undefined ? 'c' : 't';
  const where = [`${k}.tenant_id = ?`];
  const params: unknown[] = [tenantId];
  if (term !== undefined) {
    where.push('t.term = ?');
    params.push(term);
  }
  for (const [column, value] of filter.columns) {
    where.push(`c.${column} = ?`);
    params.push(value);
  }
  for (const group of otherGroups) {
    where.push(
      `EXISTS (SELECT 1 FROM audit_call_terms x WHERE x.tenant_id = ${k}.tenant_id AND x.call_id = ${k}.call_id AND x.term IN (${marks(group.length)}))`,
    );
    params.push(...group);
  }
  if (filter.from) {
    where.push(`${k}.requested_at >= ?`);
    params.push(toSqlDateTime(filter.from));
  }
  if (filter.to) {
    where.push(`${k}.requested_at <= ?`);
    params.push(toSqlDateTime(filter.to));
  }
  if (after) {
    // The cursor's order is (requested_at, tenant_id, call_id) descending: within one tenant, a
    // bound on the time, and on the id at the cursor's own time in the cursor's own tenant.
    const at = toSqlDateTime(after.requestedAt);
    if (tenantId === after.tenantId) {
      where.push(`(${k}.requested_at < ? OR (${k}.requested_at = ? AND ${k}.call_id < ?))`);
      params.push(at, at, after.callId);
    } else {
      where.push(`${k}.requested_at ${tenantId < after.tenantId ? '<=' : '<'} ?`);
      params.push(at);
    }
  }
  const from =
    term === undefined
      ? `audit_calls c${mysql ? forcedIndex(filter) : ''}`
      : filter.columns.size
        ? `audit_call_terms t ${mysql ? 'STRAIGHT_JOIN' : 'CROSS JOIN'} audit_calls c ON c.tenant_id = t.tenant_id AND c.call_id = t.call_id`
        : 'audit_call_terms t';
  return {
    sql: `SELECT ${k}.tenant_id AS tenant_id, ${k}.call_id AS call_id, ${k}.requested_at AS requested_at FROM ${from}
      WHERE ${where.join(' AND ')} ORDER BY ${k}.requested_at DESC, ${k}.call_id DESC LIMIT ${Math.trunc(limit)}`,
    params,
  };
}

/** Column indexes by how few calls one value usually has: a lane with several columns reads the first's. */
const MOST_SELECTIVE_FIRST: readonly FilterColumn[] = [
  'run_id',
  'session_id',
  'target',
  'code',
  'tool',
  'agent_type',
  'state',
  'status',
  'risk_level',
  'face',
];

/**
 * MariaDB's choice of index for a call lane, made for it. The optimizer took the time index for
 * `tenant + column` (and always for two columns, which no index holds together) and read rows until
 * enough matched — every row of the tenant when none does (tool + status: 83,324 rows for none).
 * A column's index gives the same order and holds only that column's matches; with several
 * columns, the one whose values are usually rarest. A call id is the primary key's to find.
 */
function forcedIndex(filter: CallPageFilter): string {
  if (filter.columns.has('call_id')) return '';
  const column = MOST_SELECTIVE_FIRST.find((c) => filter.columns.has(c));
  if (column === undefined) return ' FORCE INDEX (idx_audit_calls_time)';
  const pair = PAIR_INDEX_OF[column];
  const index = pair && filter.columns.has(pair.second) ? pair.index : INDEX_OF[column];
  return index ? ` FORCE INDEX (${index})` : '';
}
