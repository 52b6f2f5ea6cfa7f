import { Injectable } from '@nestjs/common';
import { PLATFORM_TENANT, type CallRecordSink, type Sidecar } from '@toolgate/audit';
import { InstanceRegistry } from '@toolgate/database';
import { ErrorCode, errorEnvelope, isOk, type ToolCall, type ToolCallResult } from '@toolgate/toolkit';
import { CallTransitions, type CallRef, type NewCallRecord } from './call-transitions.js';
import { principalOf } from './stored-principal.js';

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
 * Keeps `tool_calls` in step with the audit trail: the record of an L1+ call moves in the same
 * transaction as its `started`, `finished` or closing event (the statements are CallTransitions').
 */
@Injectable()
export class CallRecordsSink implements CallRecordSink {
  constructor(private readonly instances: InstanceRegistry) {}

  started(call: ToolCall): Sidecar {
    const r = call.request;
    // Written out, not `{ ...refOf(call), ... }`: on Node 20 each property added after a spread
    // takes V8's slow path (~2 µs a property; this literal cost ~30 µs a call, measured).
    const record: NewCallRecord = {
      tenantId: r.tenant?.id ?? PLATFORM_TENANT,
      callId: call.id,
      agentType: r.agentType,
      tool: call.tool.contract.name,
      implementation: call.tool.implementation.name,
      sessionId: call.ctx.session.id,
      idempotencyIdentity: r.idempotencyIdentity ?? null,
      principal: principalOf(r.principal),
      locale: r.locale,
      input: null,
      inputDigest: null,
      timeoutMs: call.tool.timeoutMs,
      approvalMode: call.tool.approval,
      bindingVersion: call.tool.bindingVersion,
      approvalId: null,
      instanceId: this.instances.instanceId,
      face: r.face ?? null,
    };
    return (dialect) => [CallTransitions.start(record, dialect)];
  }

  finished(call: ToolCall, result: ToolCallResult): Sidecar {
    const outcome = isOk(result.envelope) ? 'succeeded' : 'failed';
    return () => [CallTransitions.finish(refOf(call), outcome, result.envelope)];
  }

  notExecuted(call: ToolCall): Sidecar {
    const envelope = errorEnvelope(ErrorCode.AUDIT_UNAVAILABLE, call.request.locale);
    return () => [CallTransitions.finish(refOf(call), 'failed', envelope)];
  }

  interrupted(tenantId: string, callId: string): Sidecar {
    return () => [CallTransitions.interrupt({ tenantId, callId }, INTERRUPTED_ENVELOPE)];
  }
}
