import { Injectable } from '@nestjs/common';
import {
  AuditTrail,
  AuditUnavailableError,
  type AdminEvent,
  type EvidenceManifest,
  type Verification,
  type VerifyJob,
} from '@toolgate/audit';
import type { Principal } from '@toolgate/auth';
import type { AuditEventType } from '@toolgate/contract';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';

/** Broken tenants a `chain_verified` event lists at most (the verification itself lists them all). */
const BROKEN_LISTED = 20;

/** What a verification found, small enough for an event. */
function verdictOf(v: Verification): Record<string, unknown> {
  const broken = v.tenants.filter((t) => !t.ok);
  return {
    ok: v.ok,
    checked: v.checked,
    tenants: v.tenants.length,
    ...(broken.length
      ? {
          broken: broken.slice(0, BROKEN_LISTED).map((t) => ({
            tenantId: t.tenantId,
            firstBrokenEventId: t.firstBrokenEventId ?? null,
            problem: t.problem ?? null,
          })),
        }
      : {}),
  };
}

/**
 * The administrative acts on the trail itself, as events (issue 24, ADR 039): an export or an
 * evidence file taken, a verification run, a dead letter retried. An export or a download is
 * recorded durably before a byte leaves (a trail that cannot record its own export does not
 * export: AUDIT_UNAVAILABLE); a verification, when its verdict is known. Each names the person or
 * key, goes to the chain of the principal's tenant (the platform's for platform-wide readers) and
 * says `details.outcome`.
 */
@Injectable()
export class AdminActs {
  constructor(private readonly audit: AuditTrail) {}

  /** Before an export streams. */
  exported(p: Principal, query: Record<string, unknown>): Promise<void> {
    return this.durably(this.event(p, 'trail_exported', { outcome: 'success', ...query }));
  }

  /** Before a tenant's processing records leave as a file (ADR 048): how many records it holds. */
  processingRecordsExported(p: Principal, tenantId: string, records: number): Promise<void> {
    return this.durably(
      this.event(p, 'processing_records_exported', {
        outcome: 'success',
        exportedTenantId: tenantId,
        format: 'csv',
        records,
      }),
    );
  }

  /** Before an evidence file is streamed: `zipBytes` is null then (its size is not known yet, ADR 046). */
  evidenceDownloaded(p: Principal, manifest: EvidenceManifest, zipBytes: number | null): Promise<void> {
    return this.durably(
      this.event(p, 'evidence_downloaded', {
        outcome: 'success',
        evidenceTenantId: manifest.tenantId,
        from: manifest.from,
        to: manifest.to,
        firstSeq: manifest.firstSeq,
        lastSeq: manifest.lastSeq,
        events: manifest.events,
        keyId: manifest.keyId,
        bytes: zipBytes,
        generatedAt: manifest.generatedAt,
      }),
    );
  }

  /** A verification that ran to its verdict (intact or broken: the run succeeded either way). */
  verified(p: Principal, scope: Record<string, unknown>, v: Verification): Promise<void> {
    return this.durably(this.event(p, 'chain_verified', { outcome: 'success', ...scope, ...verdictOf(v) }));
  }

  /** A background verification's end: recorded when it finishes, whatever the caller does then. */
  jobFinished(p: Principal, job: VerifyJob): void {
    const failed = job.status === 'failed' || !job.result;
    this.audit.recordEventually([
      this.event(p, 'chain_verified', {
        outcome: failed ? 'failure' : 'success',
        jobId: job.id,
        verifiedTenantId: job.tenantId,
        ...(failed ? { error: job.error ?? 'no result' } : verdictOf(job.result!)),
      }),
    ]);
  }

  /** A dead letter put back in line by hand. */
  notificationRetried(p: Principal, tenantId: string, deliveryId: string): Promise<void> {
    return this.durably({
      ...this.event(p, 'notification_retried', { outcome: 'success', deliveryId }),
      tenantId,
    });
  }

  private event(p: Principal, event: AuditEventType, details: Record<string, unknown>): AdminEvent {
    return {
      event,
      tenantId: p.tenantId,
      actor: { type: p.principalType, id: p.principalId },
      details: { role: p.role, ...details },
    };
  }

  private async durably(event: AdminEvent): Promise<void> {
    try {
      await this.audit.record([event]);
    } catch (err) {
      if (!(err instanceof AuditUnavailableError)) throw err;
      throw new ToolgateError(ErrorCode.AUDIT_UNAVAILABLE, { cause: err });
    }
  }
}
