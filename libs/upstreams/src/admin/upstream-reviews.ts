import { Injectable } from '@nestjs/common';
import { AuditTrail, type AuditActor } from '@toolgate/audit';
import type { ReviewUpstreamToolBody } from '@toolgate/contract';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import { UpstreamToolEntity } from '../entities/upstream-tool.entity.js';
import { changedFields, FINGERPRINT_VERSION } from '../fingerprint.js';
import { invalidRequest } from '../upstream-failures.js';
import { UpstreamPinning } from '../upstream-pinning.js';
import { contractProblems } from '../upstream-tenant-tools.js';
import { toImportedView } from '../upstream-views.js';
import { UpstreamRepository } from '../upstream.repository.js';
import { UpstreamLookup } from './upstream-lookup.js';

/**
 * A quarantined tool's review (ADR 016): its pinned and pending definitions side by side, and the
 * decision — accept (the pending definition is pinned, the tool callable again) or keep it blocked —
 * written with its audit event, against the fingerprint the reviewer saw.
 */
@Injectable()
export class UpstreamReviews {
  constructor(
    private readonly repo: UpstreamRepository,
    private readonly lookup: UpstreamLookup,
    private readonly pinning: UpstreamPinning,
    private readonly audit: AuditTrail,
  ) {}

  /** Pinned against pending definition of one imported tool, with the fields that differ. */
  async diff(tenantId: string, name: string, tool: string) {
    const { row } = await this.lookup.tool(tenantId, name, tool);
    return {
      toolgateName: row.toolgateName,
      status: row.status,
      pinned: { fingerprint: row.pinnedFingerprint, definition: row.pinnedDefinition },
      pending:
        row.pendingDefinition && row.pendingFingerprint
          ? { fingerprint: row.pendingFingerprint, definition: row.pendingDefinition }
          : null,
      changedFields: row.pendingDefinition ? changedFields(row.pinnedDefinition, row.pendingDefinition) : [],
    };
  }

  /** Accept: the pending definition becomes the pinned one and the tool is callable again. Keep blocked: it stays quarantined. */
  async review(
    tenantId: string,
    name: string,
    tool: string,
    body: ReviewUpstreamToolBody,
    actor: AuditActor,
  ) {
    const { server, row } = await this.lookup.tool(tenantId, name, tool);
    if (row.status !== 'quarantined' || !row.pendingDefinition || !row.pendingFingerprint)
      throw invalidRequest(
        `tool ${row.toolgateName} is ${row.status}, not quarantined: there is nothing to review`,
      );
    if (body.fingerprint !== undefined && body.fingerprint !== row.pendingFingerprint)
      throw new ToolgateError(ErrorCode.VERSION_CONFLICT, {
        params: { currentVersion: row.pendingFingerprint },
        details: { pendingFingerprint: row.pendingFingerprint },
      });
    const accept = body.decision === 'accept';
    if (accept) {
      const problems = contractProblems({
        ...row,
        timeoutMs: row.timeoutMs ?? server.timeoutMs,
        definition: row.pendingDefinition,
      });
      if (problems.length)
        throw invalidRequest(`the new definition cannot be a tool: ${problems.join('; ')}`);
    }
    const now = new Date();
    const change: Partial<UpstreamToolEntity> = accept
      ? {
          status: 'active',
          pinnedDefinition: row.pendingDefinition,
          pinnedFingerprint: row.pendingFingerprint,
          fingerprintVersion: FINGERPRINT_VERSION,
          pendingDefinition: null,
          pendingFingerprint: null,
          reviewedBy: actor.id,
          reviewedAt: now,
        }
      : { reviewedBy: actor.id, reviewedAt: now };
    const applied = await this.repo.run(async (em) => {
      if (!(await this.repo.updateTool(em, row, change))) return false;
      await this.audit.recordIn(em, [
        {
          event: 'upstream_changed',
          tenantId,
          actor,
          tool: row.toolgateName,
          riskLevel: row.riskLevel,
          details: {
            kind: accept ? 'tool_review_accepted' : 'tool_review_kept_blocked',
            upstream: server.name,
            upstreamTool: row.upstreamName,
            previousFingerprint: row.pinnedFingerprint,
            pendingFingerprint: row.pendingFingerprint,
            changedFields: changedFields(row.pinnedDefinition, row.pendingDefinition!),
          },
        },
      ]);
      return true;
    });
    if (!applied)
      throw new ToolgateError(ErrorCode.VERSION_CONFLICT, { params: { currentVersion: 'changed' } });
    this.pinning.changed(tenantId);
    return toImportedView(Object.assign(new UpstreamToolEntity(), row, change));
  }
}
