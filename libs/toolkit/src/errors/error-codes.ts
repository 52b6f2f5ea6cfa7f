import { ERROR_CODES, type ErrorCode as ErrorCodeName } from '@toolgate/contract/rules';

/**
 * Every code the platform itself produces, by name (`ErrorCode.TIMEOUT`); the list is the REST
 * contract's (libs/contract). Tools may add their own UPPER_SNAKE codes through `ToolError`; those
 * pass through unchanged.
 */
export const ErrorCode = Object.freeze(Object.fromEntries(ERROR_CODES.map((code) => [code, code]))) as {
  readonly [C in ErrorCodeName]: C;
};

export type ErrorCode = ErrorCodeName;

/**
 * Codes only the platform may produce: each changes what a client does next (wait for a person,
 * back off, retry, re-authenticate), so a tool failing with one would make clients retry side
 * effects or wait for approvals that do not exist. `ToolError` refuses them.
 */
export const PLATFORM_RESERVED_CODES: ReadonlySet<string> = new Set([
  ErrorCode.APPROVAL_PENDING,
  ErrorCode.APPROVAL_DENIED,
  ErrorCode.APPROVAL_EXPIRED,
  ErrorCode.UNAUTHENTICATED,
  ErrorCode.FORBIDDEN,
  ErrorCode.TOOL_NOT_FOUND,
  ErrorCode.TOOL_QUARANTINED,
  ErrorCode.POLICY_DENIED,
  ErrorCode.IDEMPOTENCY_CONFLICT,
  ErrorCode.IDEMPOTENCY_IN_PROGRESS,
  ErrorCode.VERSION_CONFLICT,
  ErrorCode.PAYLOAD_TOO_LARGE,
  ErrorCode.RATE_LIMITED,
  ErrorCode.AUDIT_UNAVAILABLE,
  ErrorCode.AUDIT_CHAIN_BROKEN,
  ErrorCode.DUTIES_SEPARATED,
  ErrorCode.ROLES_CONFLICT,
  ErrorCode.CONNECTOR_NOT_CONFIGURED,
  ErrorCode.DATA_EXPORT_BLOCKED,
  ErrorCode.NOT_READY,
  ErrorCode.OUTPUT_INVALID,
  ErrorCode.INTERNAL_ERROR,
  ErrorCode.MODEL_UNAVAILABLE,
  ErrorCode.MODEL_REJECTED,
  ErrorCode.STEP_LIMIT,
  ErrorCode.DEADLINE_EXCEEDED,
  ErrorCode.BUDGET_EXCEEDED,
  ErrorCode.RUN_CANCELLED,
]);

/** A code a tool author may use: UPPER_SNAKE, letters, digits and underscores. */
export const ERROR_CODE_PATTERN = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;
