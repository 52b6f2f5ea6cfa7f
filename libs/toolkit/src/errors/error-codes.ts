/**
 * Every code the platform itself produces. Tools may add their own UPPER_SNAKE codes through
 * `ToolError`; those pass through unchanged.
 */
export const ErrorCode = {
  INVALID_INPUT: 'INVALID_INPUT',
  TIMEOUT: 'TIMEOUT',
  UPSTREAM_ERROR: 'UPSTREAM_ERROR',
  OUTPUT_INVALID: 'OUTPUT_INVALID',
  APPROVAL_PENDING: 'APPROVAL_PENDING',
  APPROVAL_DENIED: 'APPROVAL_DENIED',
  APPROVAL_EXPIRED: 'APPROVAL_EXPIRED',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  TOOL_NOT_FOUND: 'TOOL_NOT_FOUND',
  IDEMPOTENCY_CONFLICT: 'IDEMPOTENCY_CONFLICT',
  IDEMPOTENCY_IN_PROGRESS: 'IDEMPOTENCY_IN_PROGRESS',
  VERSION_CONFLICT: 'VERSION_CONFLICT',
  ALREADY_EXISTS: 'ALREADY_EXISTS',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  RATE_LIMITED: 'RATE_LIMITED',
  AUDIT_UNAVAILABLE: 'AUDIT_UNAVAILABLE',
  AUDIT_CHAIN_BROKEN: 'AUDIT_CHAIN_BROKEN',
  CONNECTOR_NOT_CONFIGURED: 'CONNECTOR_NOT_CONFIGURED',
  NOT_READY: 'NOT_READY',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

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
  ErrorCode.IDEMPOTENCY_CONFLICT,
  ErrorCode.IDEMPOTENCY_IN_PROGRESS,
  ErrorCode.VERSION_CONFLICT,
  ErrorCode.PAYLOAD_TOO_LARGE,
  ErrorCode.RATE_LIMITED,
  ErrorCode.AUDIT_UNAVAILABLE,
  ErrorCode.AUDIT_CHAIN_BROKEN,
  ErrorCode.CONNECTOR_NOT_CONFIGURED,
  ErrorCode.NOT_READY,
  ErrorCode.OUTPUT_INVALID,
  ErrorCode.INTERNAL_ERROR,
]);

/** A code a tool author may use: UPPER_SNAKE, letters, digits and underscores. */
export const ERROR_CODE_PATTERN = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;
