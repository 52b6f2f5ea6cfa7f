import { Injectable } from '@nestjs/common';
import type { Writable } from 'node:stream';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import type { AuditEventRecord } from '../audit-event.js';
import { CheckpointService } from '../chain/checkpoint.service.js';
import type { Verification } from '../chain/chain-verifier.js';
import { toApiEvent, type ApiAuditEvent } from '../chain/event-mapping.js';
import { fromSqlDateTime } from '../chain/sql-time.js';
import { AuditEventsRepository } from './audit-events.repository.js';
import { writeExport } from './audit-export.js';
import {
  decodeCursor,
  encodeCursor,
  type AuditExportQuery,
  type AuditFilter,
  type AuditListQuery,
  type AuditVerifyQuery,
} from './audit-query.js';

/** Which tenant's trail a reader may see: one tenant, or every tenant (null). */
export type AuditScope = string | null;

const notFound = (what: string) => new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: what } });

/**
 * What compliance reads: filtered pages, single events, a call's whole story, open calls,
 * streamed exports and verification — each confined to the reader's scope.
 */
@Injectable()
export class AuditQueries {
  constructor(
    private readonly events: AuditEventsRepository,
    private readonly checkpoints: CheckpointService,
  ) {}

  /** A tenant-bound reader may only filter on its own tenant; asking for another is forbidden. */
  private scoped<F extends AuditFilter>(filter: F, scope: AuditScope): F {
    if (scope !== null && filter.tenantId !== undefined && filter.tenantId !== scope)
      throw new ToolgateError(ErrorCode.FORBIDDEN);
    return scope === null ? filter : { ...filter, tenantId: scope };
  }

  async list(
    query: AuditListQuery,
    scope: AuditScope,
  ): Promise<{ items: ApiAuditEvent[]; nextCursor: string | null }> {
    const { cursor, limit, ...filter } = query;
    const before = cursor ? decodeCursor(cursor) : undefined;
    if (cursor && !before)
      throw new ToolgateError(ErrorCode.INVALID_INPUT, {
        params: { summary: 'cursor is not one this API returned' },
      });
    const rows = await this.events.page(this.scoped(filter, scope), scope, limit + 1, before);
    const page = rows.slice(0, limit);
    return {
      items: page.map(toApiEvent),
      nextCursor: rows.length > limit ? encodeCursor(page.at(-1)!.id) : null,
    };
  }

  async event(id: string, scope: AuditScope): Promise<ApiAuditEvent> {
    const e = await this.events.byId(id);
    if (!e || (scope !== null && e.tenantId !== scope)) throw notFound(`audit event ${id}`);
    return toApiEvent(e);
  }

  /** Every event of one call in order: started → approval → finished / late completion. */
  async call(
    callId: string,
    scope: AuditScope,
  ): Promise<{ callId: string; complete: boolean; events: ApiAuditEvent[] }> {
    const all = (await this.events.byCall(callId)).filter(
      (e: AuditEventRecord) => scope === null || e.tenantId === scope,
    );
    if (!all.length) throw notFound(`call ${callId}`);
    const complete = all.some(
      (e) => e.event === 'finished' || e.event === 'not_executed' || e.event === 'interrupted',
    );
    return { callId, complete, events: all.map(toApiEvent) };
  }

  /** Calls with a `started` and no closing event yet (running, or their gateway died). */
  async incomplete(scope: AuditScope) {
    const rows = await this.events.openCalls(scope);
    return rows.map((r) => ({
      callId: r.callId,
      tenantId: r.tenantId,
      tool: r.tool,
      instanceId: r.instanceId,
      startedAt: fromSqlDateTime(r.startedAt).toISOString(),
    }));
  }

  /** Streams the matching events as CSV or JSON Lines; memory stays constant. */
  export(query: AuditExportQuery, scope: AuditScope, out: Writable): Promise<number> {
    const { format, ...filter } = query;
    return writeExport(out, format, this.events.scan(this.scoped(filter, scope), scope));
  }

  verify(query: AuditVerifyQuery, scope: AuditScope): Promise<Verification> {
    if (scope !== null && query.tenantId !== undefined && query.tenantId !== scope)
      throw new ToolgateError(ErrorCode.FORBIDDEN);
    const tenant = scope ?? query.tenantId;
    return this.checkpoints.verify(tenant ? [tenant] : null, {
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? new Date(query.to) : undefined,
    });
  }

  async checkpointsOf(scope: AuditScope, tenantId?: string) {
    if (scope !== null && tenantId !== undefined && tenantId !== scope)
      throw new ToolgateError(ErrorCode.FORBIDDEN);
    return this.checkpoints.export(scope ?? tenantId);
  }

  async checkpointNow(scope: AuditScope, tenantId?: string) {
    if (scope !== null && tenantId !== undefined && tenantId !== scope)
      throw new ToolgateError(ErrorCode.FORBIDDEN);
    const tenant = scope ?? tenantId;
    return this.checkpoints.checkpointAll(tenant ? [tenant] : undefined);
  }
}
