import { Injectable } from '@nestjs/common';
import type { CallRecordSink, Sidecar, SqlStatement } from '@toolgate/audit';
import { InstanceRegistry, toSqlDateTime } from '@toolgate/database';
import { ErrorCode, errorEnvelope, isOk, type ToolCall, type ToolCallResult } from '@toolgate/toolkit';
import { PLATFORM_TENANT } from '@toolgate/audit';
import { principalOf } from './stored-principal.js';

const now = () => toSqlDateTime(new Date());

const COLUMNS =
  'call_id, tenant_id, agent_type, tool, implementation, session_id, idempotency_identity, principal, locale, status, input, input_digest, timeout_ms, approval_mode, binding_version, approval_id, envelope, instance_id, created_at, updated_at';

/** The envelope a call interrupted by a dying gateway answers with. */
const INTERRUPTED_ENVELOPE = JSON.stringify({
  error: 'The gateway running this call stopped; its outcome is unknown',
  code: 'INTERRUPTED',
  suggestedAction: 'Retry with the same Idempotency-Key: the upstream receives the same idempotency key',
});

/**
 * Keeps `tool_calls` in step with the audit trail: the record of an L1+ call is written in the same
 * transaction as its `started`, `finished` or closing event.
 */
@Injectable()
export class CallRecordsSink implements CallRecordSink {
  constructor(private readonly instances: InstanceRegistry) {}

  started(call: ToolCall): Sidecar {
    const r = call.request;
    const t = now();
    const values = [
      call.id,
      r.tenant?.id ?? PLATFORM_TENANT,
      r.agentType,
      call.tool.contract.name,
      call.tool.implementation.name,
      call.ctx.session.id,
      r.idempotencyIdentity ?? null,
      JSON.stringify(principalOf(r.principal)),
      r.locale,
      'running',
      null,
      null,
      call.tool.timeoutMs,
      call.tool.approval,
      call.tool.bindingVersion,
      null,
      null,
      this.instances.instanceId,
      t,
      t,
    ];
    const placeholders = values.map(() => '?').join(',');
    return (dialect): SqlStatement[] => [
      {
        sql:
          dialect === 'mysql'
            ? `INSERT INTO tool_calls (${COLUMNS}) VALUES (${placeholders}) ON DUPLICATE KEY UPDATE status = 'running', instance_id = VALUES(instance_id), updated_at = VALUES(updated_at)`
            : `INSERT INTO tool_calls (${COLUMNS}) VALUES (${placeholders}) ON CONFLICT(call_id) DO UPDATE SET status = 'running', instance_id = excluded.instance_id, updated_at = excluded.updated_at`,
        params: values,
      },
    ];
  }

  finished(call: ToolCall, result: ToolCallResult): Sidecar {
    const status = isOk(result.envelope) ? 'succeeded' : 'failed';
    return this.update(call.id, status, result.envelope);
  }

  notExecuted(call: ToolCall): Sidecar {
    return this.update(call.id, 'failed', errorEnvelope(ErrorCode.AUDIT_UNAVAILABLE, call.request.locale));
  }

  interrupted(callId: string): Sidecar {
    return () => [
      {
        sql: `UPDATE tool_calls SET status = 'interrupted', envelope = ?, updated_at = ? WHERE call_id = ? AND status IN ('running', 'queued')`,
        params: [INTERRUPTED_ENVELOPE, now(), callId],
      },
    ];
  }

  private update(callId: string, status: string, envelope: unknown): Sidecar {
    return () => [
      {
        sql: 'UPDATE tool_calls SET status = ?, envelope = ?, updated_at = ? WHERE call_id = ?',
        params: [status, JSON.stringify(envelope), now(), callId],
      },
    ];
  }
}
