import { Injectable } from '@nestjs/common';
import type { ApprovalContext, AuditCall, AuditCallPage, AuditPrincipal } from '@toolgate/contract';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import { PLATFORM_TENANT } from '../audit-event.js';
import { tenantIn, type AuditScope } from '../query/audit-queries.js';
import type { AuditCallsQuery, AuditPrincipalsQuery } from './audit-call-query.js';
import {
  AuditCallsRepository,
  type CallCursor,
  type CallPageFilter,
  type FilterColumn,
} from './audit-calls.repository.js';
import type { CallRow } from './call-fold.js';

/** Query parameters that are a column of the call row, and the column. */
const COLUMN_OF: readonly (readonly [keyof AuditCallsQuery, FilterColumn])[] = [
  ['agentType', 'agent_type'],
  ['tool', 'tool'],
  ['face', 'face'],
  ['riskLevel', 'risk_level'],
  ['state', 'state'],
  ['status', 'status'],
  ['code', 'code'],
  ['runId', 'run_id'],
  ['sessionId', 'session_id'],
  ['callId', 'call_id'],
];

/** Earlier decided calls an approver sees, and how many recent calls of the target are looked at for them. */
const EARLIER_DECISIONS = 5;
const EARLIER_SCAN = 50;

const badCursor = () =>
  new ToolgateError(ErrorCode.INVALID_INPUT, { params: { summary: 'cursor is not one this API returned' } });

/** The cursor after a call: its time, tenant and id, opaque to clients. */
export function encodeCallCursor(c: CallCursor): string {
  return Buffer.from(JSON.stringify(['c', c.requestedAt.getTime(), c.tenantId, c.callId])).toString(
    'base64url',
  );
}

export function decodeCallCursor(cursor: string): CallCursor | undefined {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown;
    if (!Array.isArray(v) || v.length !== 4 || v[0] !== 'c') return undefined;
    const [, at, tenantId, callId] = v as [string, unknown, unknown, unknown];
    if (typeof at !== 'number' || typeof tenantId !== 'string' || typeof callId !== 'string')
      return undefined;
    return { requestedAt: new Date(at), tenantId, callId };
  } catch {
    return undefined;
  }
}

/**
 * `GET /v1/audit/calls` and `GET /v1/audit/principals`: the call projection (ADR 033) as auditors
 * question it — filters resolved to indexed columns and terms, names of keys and people filled in.
 */
@Injectable()
export class AuditCallQueries {
  constructor(private readonly repo: AuditCallsRepository) {}

  async list(query: AuditCallsQuery, scope: AuditScope): Promise<AuditCallPage> {
    const tenantId = tenantIn(scope, query.tenantId);
    const after = query.cursor ? decodeCallCursor(query.cursor) : undefined;
    if (query.cursor && !after) throw badCursor();
    const filter = await this.filterOf(query, tenantId);
    const rows = await this.repo.page(filter, query.limit + 1, after);
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      items: await this.views(page),
      nextCursor: rows.length > query.limit && last ? encodeCallCursor(last) : null,
    };
  }

  /** The named keys and people of the reader's scope: how an auditor maps a name to an id. */
  async principals(query: AuditPrincipalsQuery, scope: AuditScope): Promise<AuditPrincipal[]> {
    const tenantId = tenantIn(scope, query.tenantId);
    return this.repo.principals(tenantId === undefined ? undefined : [tenantId], query.limit);
  }

  /**
   * An approval's context for its approvers: the call's row (its outcome once decided), the
   * requester by name, and up to EARLIER_DECISIONS earlier decided calls of the tool on the target.
   */
  async approvalContext(approval: {
    approvalId: string;
    tenantId: string;
    callId: string;
    tool: string;
    requestedBy: string;
  }): Promise<ApprovalContext> {
    const { tenantId, callId } = approval;
    const [row] = await this.repo.page(
      { tenantId, columns: new Map([['call_id', callId]]), termGroups: [] },
      1,
    );
    let earlier: CallRow[] = [];
    if (row?.target) {
      const sameTarget = await this.repo.page(
        {
          tenantId,
          columns: new Map<FilterColumn, string>([
            ['tool', approval.tool],
            ['target', row.target],
          ]),
          termGroups: [],
        },
        EARLIER_SCAN,
      );
      earlier = sameTarget
        .filter((c) => c.callId !== callId && c.approvers.length > 0 && c.requestedAt <= row.requestedAt)
        .slice(0, EARLIER_DECISIONS);
    }
    const [call, ...others] = await this.views(row ? [row, ...earlier] : earlier);
    const names = await this.repo.namesOf([approval.requestedBy]);
    const requester: AuditCall['requester'] = (row && call?.requester) ?? {
      type: approval.requestedBy.includes(':') ? 'user' : 'api_key',
      id: approval.requestedBy,
      name:
        names.get(`${tenantId}/${approval.requestedBy}`) ??
        names.get(`${PLATFORM_TENANT}/${approval.requestedBy}`) ??
        null,
    };
    return {
      approvalId: approval.approvalId,
      callId,
      requester,
      runId: row?.runId ?? null,
      target: row?.target ?? null,
      call: row ? call! : null,
      earlier: row ? others : [],
    };
  }

  private async filterOf(query: AuditCallsQuery, tenantId: string | undefined): Promise<CallPageFilter> {
    const columns = new Map<FilterColumn, string>();
    for (const [param, column] of COLUMN_OF) {
      const v = query[param];
      if (v !== undefined) columns.set(column, String(v));
    }
    const termGroups: string[][] = [];
    if (query.target !== undefined) {
      const t = query.target;
      if (!t.includes('=')) termGroups.push([`target:${t}`]);
      else if (/^[^=\s]+=\S*$/.test(t)) termGroups.push([`input:${t}`]);
      else columns.set('target', t);
    }
    if (query.input !== undefined) termGroups.push([`input:${query.input}`]);
    // Names are looked up in the tenant and the platform chain (platform-wide keys).
    const tenants = tenantId === undefined ? undefined : [tenantId, PLATFORM_TENANT];
    for (const [role, v] of [
      ['person', query.person],
      ['requester', query.requester],
      ['approver', query.approver],
    ] as const) {
      if (v === undefined) continue;
      const ids = new Set([v, ...(await this.repo.idsNamed(v, tenants))]);
      termGroups.push([...ids].map((id) => `${role}:${id}`));
    }
    return {
      tenantId,
      columns,
      termGroups,
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? new Date(query.to) : undefined,
    };
  }

  /** The rows as the API shows them, with the names the trail knows for their keys and people. */
  private async views(rows: readonly CallRow[]): Promise<AuditCall[]> {
    const ids = rows.flatMap((r) => [
      ...(r.requesterId ? [r.requesterId] : []),
      ...r.approvers.map((a) => a.id),
    ]);
    const names = ids.length ? await this.repo.namesOf(ids) : new Map<string, string>();
    const nameOf = (tenantId: string, id: string) =>
      names.get(`${tenantId}/${id}`) ?? names.get(`${PLATFORM_TENANT}/${id}`) ?? null;
    return rows.map((r) => ({
      tenantId: r.tenantId,
      callId: r.callId,
      agentType: r.agentType,
      tool: r.tool,
      implementation: r.implementation,
      riskLevel: r.riskLevel as AuditCall['riskLevel'],
      face: r.face,
      target: r.target,
      input: r.input,
      state: r.state,
      status: r.status,
      code: r.code,
      requester: r.requesterId
        ? { type: r.requesterType ?? 'api_key', id: r.requesterId, name: nameOf(r.tenantId, r.requesterId) }
        : null,
      approvers: r.approvers.map((a) => ({ ...a, name: a.name ?? nameOf(r.tenantId, a.id) })),
      requestedAt: r.requestedAt.toISOString(),
      startedAt: r.startedAt?.toISOString() ?? null,
      finishedAt: r.finishedAt?.toISOString() ?? null,
      durationMs: r.durationMs,
      runId: r.runId,
      sessionId: r.sessionId,
      events: r.events,
      lastSeq: r.lastSeq,
    }));
  }
}
