import { Injectable } from '@nestjs/common';
import { InstanceRegistry } from '@toolgate/database';
import type { MarkedField } from '@toolgate/toolkit';
import type { EntityManager } from 'typeorm';
import { PLATFORM_TENANT, type AuditActor, type AuditEventType } from './audit-event.js';
import { draftEvent, type AuditEventDraft } from './audit-fields.js';
import type { ReadStatement, WriteStatement } from '@toolgate/database';
import { AuditChainRepository } from './chain/audit-chain.repository.js';
import { AuditWriter, toEntries } from './chain/audit-writer.js';
import { TenantRedaction } from './redaction/tenant-redaction.js';

/** An event about the platform itself (keys, bindings, approvals), as other libs report it. */
export interface AdminEvent {
  readonly event: AuditEventType;
  /** null: the platform chain. */
  readonly tenantId: string | null;
  readonly actor: AuditActor;
  readonly details: Record<string, unknown>;
  readonly callId?: string | null;
  readonly tool?: string | null;
  readonly implementation?: string | null;
  readonly riskLevel?: string | null;
  readonly agentType?: string | null;
  readonly sessionId?: string | null;
  readonly approverId?: string | null;
  /** An outcome the event records (`access_denied`: `error` and the refusal's code). */
  readonly status?: 'ok' | 'error' | null;
  readonly code?: string | null;
  readonly input?: unknown;
  readonly sensitivePaths?: readonly MarkedField[];
  /** The input already redacted with this tenant's redactor (saves redacting a large input twice). */
  readonly redactedInput?: unknown;
}

/**
 * The audit trail as the other libs use it. Inside a transaction the event commits with the
 * change it records (or neither does); outside, the call waits until the event is durable.
 */
@Injectable()
export class AuditTrail {
  constructor(
    private readonly writer: AuditWriter,
    private readonly redaction: TenantRedaction,
    private readonly instances: InstanceRegistry,
    private readonly chain: AuditChainRepository,
  ) {}

  private async draft(e: AdminEvent): Promise<AuditEventDraft> {
    const tenantId = e.tenantId ?? PLATFORM_TENANT;
    const redactor = await this.redaction.redactorFor(tenantId);
    return draftEvent({
      tenantId,
      event: e.event,
      callId: e.callId,
      tool: e.tool,
      implementation: e.implementation,
      riskLevel: e.riskLevel,
      agentType: e.agentType,
      sessionId: e.sessionId,
      actor: e.actor,
      approverId: e.approverId,
      status: e.status,
      code: e.code,
      input:
        e.redactedInput !== undefined
          ? e.redactedInput
          : e.input === undefined
            ? null
            : redactor.cap(redactor.redact(e.input, e.sensitivePaths ?? [])),
      details: redactor.redact(e.details) as Record<string, unknown>,
      occurredAt: new Date(),
      instanceId: this.instances.instanceId,
    });
  }

  /** Records events in the caller's transaction: they commit or roll back with the change. */
  async recordIn(em: EntityManager, events: readonly AdminEvent[]): Promise<void> {
    await this.writer.appendInTransaction(em, await Promise.all(events.map((e) => this.draft(e))));
  }

  /**
   * The read an event written inside a caller's `TransactionRunner.readThenWrite` needs: its
   * tenant's chain head, locked — sent in the caller's first packet beside its own reads.
   */
  eventRead(tenantId: string | null, dialect: 'mysql' | 'sqlite'): ReadStatement {
    return this.chain.headsRead([tenantId ?? PLATFORM_TENANT], dialect);
  }

  /**
   * The writes of events recorded in that transaction, linked to the head `eventRead` answered
   * (`rows`), to go in the caller's write packet; `committed` to be called once it committed.
   * Null when the tenant has no chain yet: then record them with `recordIn` in a transaction of
   * the ordinary kind. Events without dedupe keys only (admin and approval events).
   */
  async eventWrites(
    events: readonly AdminEvent[],
    rows: readonly Record<string, unknown>[],
    dialect: 'mysql' | 'sqlite',
  ): Promise<{ writes: WriteStatement[]; committed: () => void } | null> {
    const drafts = await Promise.all(events.map((e) => this.draft(e)));
    const prepared = this.chain.lockedWrites(toEntries(drafts), rows, dialect);
    if (!prepared) return null;
    return { writes: prepared.writes, committed: () => this.chain.committed(prepared.heads) };
  }

  /**
   * Records events without waiting: written with the next batch and retried until the store takes
   * them (for what is recorded beside a request, not before it: a refusal's answer does not wait).
   */
  recordEventually(events: readonly AdminEvent[]): void {
    void Promise.all(events.map((e) => this.draft(e))).then(
      (drafts) => this.writer.ensure(drafts),
      () => undefined,
    );
  }

  /**
   * Records events through the group-commit writer and waits until they are durable.
   * `dedupe` makes a retried record idempotent (e.g. the approval id).
   */
  async record(events: readonly AdminEvent[], dedupe?: string): Promise<void> {
    await this.writer.append(await Promise.all(events.map((e) => this.draft(e))), undefined, {
      dedupeExtra: dedupe,
    });
  }
}
