import { Injectable } from '@nestjs/common';
import { InstanceRegistry, PLATFORM_TENANT, type WriteStatement } from '@toolgate/database';
import { ErrorCode, errorEnvelope, isOk, type ToolCall, type ToolCallResult } from '@toolgate/toolkit';
import { CallTransitions, type CallRef } from './call-transitions.js';
import { newCallRecord } from './new-call-record.js';

/**
 * Statements that ride in the audit trail's transaction, built when the SQL dialect is known
 * (the audit lib's `Sidecar`).
 */
export type CallRecordWrites = ((dialect: 'mysql' | 'sqlite') => readonly WriteStatement[]) & {
  /** Holds a guarded statement (a claim): the event goes in a batch of its own (ADR 049). */
  readonly guarded?: true;
};

/** The envelope a call interrupted by a dying gateway answers with. */
const INTERRUPTED_ENVELOPE = {
  error: 'The gateway running this call stopped; its outcome is unknown',
  code: 'INTERRUPTED',
  suggestedAction: 'Retry with the same Idempotency-Key: the upstream receives the same idempotency key',
};

const refOf = (call: ToolCall): CallRef => ({
  tenantId: call.request.tenant?.id ?? PLATFORM_TENANT,
  callId: call.id,
});

/**
 * The sink the audit trail writes call records through: the record of an L1+ call moves in the
 * same transaction as its `started`, `finished` or closing event, so the record never says
 * something the trail does not (the statements are CallTransitions'). The audit lib imports it.
 */
@Injectable()
export class CallRecordsSink {
  constructor(private readonly instances: InstanceRegistry) {}

  /**
   * A call a person approved has its record (`queued`): its `started` claims it, guarded, so that
   * of two gateways running it only one writes a `started` (ADR 049). Any other call's record is
   * written with its `started`.
   */
  started(call: ToolCall): CallRecordWrites {
    if (call.request.approval) {
      const claim = CallTransitions.claim(refOf(call), this.instances.instanceId);
      return Object.assign(() => [claim], { guarded: true as const });
    }
    const record = newCallRecord(call, this.instances.instanceId);
    return (dialect) => [CallTransitions.start(record, dialect)];
  }

  /**
   * `stored`: the envelope as the record keeps it — redacted and capped by the audit lib, which
   * knows the tenant's redaction (ADR 036); the caller got the envelope itself.
   */
  finished(call: ToolCall, result: ToolCallResult, stored: unknown): CallRecordWrites {
    const outcome = isOk(result.envelope) ? 'succeeded' : 'failed';
    return () => [CallTransitions.finish(refOf(call), outcome, stored)];
  }

  notExecuted(call: ToolCall): CallRecordWrites {
    const envelope = errorEnvelope(ErrorCode.AUDIT_UNAVAILABLE, call.request.locale);
    return () => [CallTransitions.finish(refOf(call), 'failed', envelope)];
  }

  interrupted(tenantId: string, callId: string): CallRecordWrites {
    return () => [CallTransitions.interrupt({ tenantId, callId }, INTERRUPTED_ENVELOPE)];
  }
}
