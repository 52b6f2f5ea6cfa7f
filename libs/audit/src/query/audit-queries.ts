import { fromSqlDateTime } from '@toolgate/database';
import { Injectable } from '@nestjs/common';
import type { Writable } from 'node:stream';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import { CLOSING_EVENTS } from '../audit-event.js';
import { CheckpointService } from '../chain/checkpoint.service.js';
import type { Verification } from '../chain/chain-verifier.js';
import { toApiEvent, type ApiAuditEvent } from '../chain/event-mapping.js';
import { EvidenceBuilder, type EvidencePlan, type EvidenceWritten } from '../evidence/evidence-builder.js';
import type { EvidenceManifest } from '../evidence/evidence-format.js';
import { AuditEventsRepository } from './audit-events.repository.js';
import { writeExport } from './audit-export.js';
import {
  decodeCursor,
  encodeCursor,
  type AuditEvidenceQuery,
  type AuditExportQuery,
  type AuditFilter,
  type AuditListQuery,
  type AuditVerifyQuery,
} from './audit-query.js';

/** Which tenant's trail a reader may see: one tenant, or every tenant (null). */
export type AuditScope = string | null;

const notFound = (what: string) => new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: what } });

/**
 * The tenant a request reads: a tenant-bound reader's own (asking for another is forbidden),
 * otherwise the one asked for (undefined: every tenant).
 */
export function tenantIn(scope: AuditScope, asked: string | undefined): string | undefined {
  if (scope !== null && asked !== undefined && asked !== scope) throw new ToolgateError(ErrorCode.FORBIDDEN);
  return scope ?? asked;
}

/** A filter confined to the reader's scope. */
function scoped<F extends AuditFilter>(filter: F, scope: AuditScope): F {
  return { ...filter, tenantId: tenantIn(scope, filter.tenantId) };
}

/**
 * What compliance reads: filtered pages, single events, a call's whole story, open calls,
 * streamed exports and verification — each confined to the reader's scope.
 */
@Injectable()
export class AuditQueries {
  constructor(
    private readonly events: AuditEventsRepository,
    private readonly checkpoints: CheckpointService,
    private readonly evidenceBuilder: EvidenceBuilder,
  ) {}

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
    const rows = await this.events.page(scoped(filter, scope), limit + 1, before);
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
    const all = (await this.events.byCall(callId)).filter((e) => scope === null || e.tenantId === scope);
    if (!all.length) throw notFound(`call ${callId}`);
    const complete = all.some((e) => CLOSING_EVENTS.has(e.event));
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
    return writeExport(out, format, this.events.scan(scoped(filter, scope)));
  }

  verify(query: AuditVerifyQuery, scope: AuditScope): Promise<Verification> {
    const tenant = tenantIn(scope, query.tenantId);
    return this.checkpoints.verify(
      tenant ? [tenant] : null,
      {
        from: query.from && query.mode === 'full' ? new Date(query.from) : undefined,
        to: query.to && query.mode === 'full' ? new Date(query.to) : undefined,
      },
      { incremental: query.mode === 'incremental' },
    );
  }

  /**
   * What an evidence file of one tenant's trail will hold (ADR 030), decided before it is written;
   * a reader of every tenant must name one. Refuses a broken chain (AUDIT_CHAIN_BROKEN).
   */
  evidencePlan(query: AuditEvidenceQuery, scope: AuditScope): Promise<EvidencePlan> {
    const tenant = tenantIn(scope, query.tenantId);
    if (!tenant)
      throw new ToolgateError(ErrorCode.INVALID_INPUT, {
        params: { summary: 'tenantId is required: an evidence file holds one tenant’s chain' },
      });
    return this.evidenceBuilder.plan(tenant, {
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? new Date(query.to) : undefined,
    });
  }

  /** The manifest a plan promises (range and event count), for the record made before writing. */
  expectedEvidence(plan: EvidencePlan): EvidenceManifest {
    return this.evidenceBuilder.expected(plan);
  }

  /** Streams the evidence ZIP of a plan to `out` (ADR 046): memory stays flat whatever its size. */
  writeEvidence(plan: EvidencePlan, out: Writable): Promise<EvidenceWritten> {
    return this.evidenceBuilder.write(plan, out);
  }

  publicKeys() {
    return { keys: this.checkpoints.publicKeys() };
  }

  async checkpointsOf(scope: AuditScope, tenantId?: string) {
    return this.checkpoints.export(tenantIn(scope, tenantId));
  }

  /** Signs checkpoints now; AUDIT_CHAIN_BROKEN (409) when a chain does not verify and was refused one. */
  async checkpointNow(scope: AuditScope, tenantId?: string) {
    const tenant = tenantIn(scope, tenantId);
    const run = await this.checkpoints.run(tenant ? [tenant] : undefined);
    if (run.refused.length) {
      throw new ToolgateError(ErrorCode.AUDIT_CHAIN_BROKEN, {
        params: { summary: run.refused.map((r) => `${r.tenantId}: ${r.problem}`).join('; ') },
        details: { refused: run.refused, signed: run.checkpoints },
      });
    }
    return run.checkpoints;
  }
}
