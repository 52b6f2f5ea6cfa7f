import type { ToolCall, ToolCallResult } from '@toolgate/toolkit';
import type { Sidecar } from '../chain/audit-chain.repository.js';

/**
 * Keeps another lib's record of each call in step with the trail: the rows these sidecars write
 * commit in the same transaction as the call's audit events, so the record never says something
 * the trail does not. Implemented by the approvals lib (call records); optional.
 */
export interface CallRecordSink {
  started(call: ToolCall): Sidecar;
  finished(call: ToolCall, result: ToolCallResult): Sidecar;
  notExecuted(call: ToolCall): Sidecar;
  interrupted(tenantId: string, callId: string): Sidecar;
}

export const CALL_RECORD_SINK = Symbol('CALL_RECORD_SINK');

/** Two sidecars as one. */
export function bothSidecars(a: Sidecar | undefined, b: Sidecar | undefined): Sidecar | undefined {
  if (!a) return b;
  if (!b) return a;
  return (dialect) => [...a(dialect), ...b(dialect)];
}
