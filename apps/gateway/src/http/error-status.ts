import { ErrorCode, isOk, type ToolCallResult } from '@toolgate/toolkit';

/** HTTP status of a platform failure outside the invoke path (CONTRACT.md "Codes and HTTP statuses"). */
const THROWN_STATUS: Partial<Record<string, number>> = {
  [ErrorCode.INVALID_INPUT]: 400,
  [ErrorCode.UNAUTHENTICATED]: 401,
  [ErrorCode.FORBIDDEN]: 403,
  // The dengbao3 profile's separated administrators (ADR 039): refusals of the act, like FORBIDDEN.
  [ErrorCode.DUTIES_SEPARATED]: 403,
  [ErrorCode.ROLES_CONFLICT]: 403,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.TOOL_NOT_FOUND]: 404,
  // An imported tool blocked until an admin reviews its changed upstream definition.
  [ErrorCode.TOOL_QUARANTINED]: 409,
  // A tenant's rule refused the call (issue 26).
  [ErrorCode.POLICY_DENIED]: 403,
  [ErrorCode.IDEMPOTENCY_CONFLICT]: 409,
  [ErrorCode.IDEMPOTENCY_IN_PROGRESS]: 409,
  [ErrorCode.VERSION_CONFLICT]: 409,
  [ErrorCode.ALREADY_EXISTS]: 409,
  // Deciding an approval that expired (or was denied) conflicts with its state.
  [ErrorCode.APPROVAL_EXPIRED]: 409,
  [ErrorCode.APPROVAL_DENIED]: 409,
  [ErrorCode.PAYLOAD_TOO_LARGE]: 413,
  [ErrorCode.RATE_LIMITED]: 429,
  // A run refused at its start because the tenant's tokens of the day are spent.
  [ErrorCode.BUDGET_EXCEEDED]: 429,
  [ErrorCode.AUDIT_UNAVAILABLE]: 503,
  // A checkpoint refused over a chain that does not verify: the state conflicts with the request.
  [ErrorCode.AUDIT_CHAIN_BROKEN]: 409,
  [ErrorCode.RETENTION_BELOW_FLOOR]: 400,
  [ErrorCode.DATA_EXPORT_BLOCKED]: 403,
  [ErrorCode.APPROVAL_PENDING]: 202,
  [ErrorCode.NOT_READY]: 503,
  [ErrorCode.INTERNAL_ERROR]: 500,
  // An admin request that needed an upstream (register, list, refresh) that failed or did not answer.
  [ErrorCode.UPSTREAM_ERROR]: 502,
};

/** The status of a thrown platform error. */
export function statusOfThrown(code: string): number {
  return THROWN_STATUS[code] ?? 500;
}

/** The invoke answers that are not tool outcomes; they keep their platform status. */
const NOT_TOOL_OUTCOMES: ReadonlySet<string> = new Set([
  ErrorCode.APPROVAL_PENDING,
  ErrorCode.TOOL_NOT_FOUND,
  ErrorCode.TOOL_QUARANTINED,
  ErrorCode.POLICY_DENIED,
  ErrorCode.IDEMPOTENCY_CONFLICT,
  ErrorCode.RATE_LIMITED,
  ErrorCode.DATA_EXPORT_BLOCKED,
  ErrorCode.AUDIT_UNAVAILABLE,
  ErrorCode.INTERNAL_ERROR,
]);

/**
 * The status of an invoke answer. Tool outcomes are 200 on purpose: HTTP clients retry 5xx, and a
 * retried side effect is a second side effect. A failure the tool itself produced is 200 whatever
 * its code; only the platform's own answers (parked, refused, throttled, unaudited) differ.
 */
export function statusOfInvoke(result: Pick<ToolCallResult, 'envelope' | 'errorOrigin'>): number {
  if (isOk(result.envelope) || result.errorOrigin === 'tool') return 200;
  const { code } = result.envelope;
  return NOT_TOOL_OUTCOMES.has(code) ? statusOfThrown(code) : 200;
}
