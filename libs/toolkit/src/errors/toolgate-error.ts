import type { ErrorEnvelope } from './envelope.js';
import { ERROR_CODE_PATTERN, ErrorCode, PLATFORM_RESERVED_CODES } from './error-codes.js';
import { catalogMessage, type Locale } from './messages.js';

/**
 * A platform failure with a stable code. Libraries throw these; the gateway's one exception filter
 * maps the code to an HTTP status and renders the catalog text in the caller's language.
 * @example throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `call ${id}` } })
 */
export class ToolgateError extends Error {
  readonly code: ErrorCode;
  readonly params: Readonly<Record<string, unknown>>;
  readonly details?: Record<string, unknown>;
  /** Extra response headers the failure implies, such as Retry-After. */
  readonly headers?: Readonly<Record<string, string>>;

  constructor(
    code: ErrorCode,
    options: {
      params?: Record<string, unknown>;
      details?: Record<string, unknown>;
      headers?: Record<string, string>;
      cause?: unknown;
    } = {},
  ) {
    // Typed errors are expected outcomes (401, 404, 409...), not bugs: capturing a stack trace for
    // each one cost a tenth of the CPU of a rejected request in the benchmark.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(code, { cause: options.cause });
    Error.stackTraceLimit = limit;
    this.name = 'ToolgateError';
    this.code = code;
    this.params = options.params ?? {};
    this.details = options.details;
    this.headers = options.headers;
  }

  /** The envelope of this failure in a locale. */
  toEnvelope(locale: Locale): ErrorEnvelope {
    return errorEnvelope(this.code, locale, this.params, this.details);
  }
}

/** Builds a catalog envelope for a platform code. */
export function errorEnvelope(
  code: ErrorCode,
  locale: Locale,
  params?: Readonly<Record<string, unknown>>,
  details?: Record<string, unknown>,
): ErrorEnvelope {
  const { error, suggestedAction } = catalogMessage(code, locale, params);
  return details ? { error, code, suggestedAction, details } : { error, code, suggestedAction };
}

/**
 * The error a tool throws to fail with its own code and advice, which reach the agent unchanged.
 * Anything else a tool throws becomes `UPSTREAM_ERROR` with a cleaned message. Codes the platform
 * reserves (`RATE_LIMITED`, `APPROVAL_PENDING`, `AUDIT_UNAVAILABLE`, ...) are refused: a tool
 * outcome must never read like a platform answer a client retries or waits on.
 * @example throw new ToolError('SERVICE_NOT_FOUND', `服务 ${service} 不存在`, '用 list_services 查看可用服务')
 */
export class ToolError extends Error {
  readonly code: string;
  readonly suggestedAction: string;
  readonly details?: Record<string, unknown>;

  constructor(code: string, message: string, suggestedAction: string, details?: Record<string, unknown>) {
    super(message);
    if (!ERROR_CODE_PATTERN.test(code)) {
      throw new TypeError(`ToolError code must be UPPER_SNAKE_CASE, got "${code}"`);
    }
    if (PLATFORM_RESERVED_CODES.has(code)) {
      throw new TypeError(
        `ToolError code "${code}" is reserved for the platform; use a code of the tool's own (e.g. UPSTREAM_${code})`,
      );
    }
    this.name = 'ToolError';
    this.code = code;
    this.suggestedAction = suggestedAction;
    this.details = details;
  }
}

/**
 * Thrown to an in-process caller of a `@Tool` method when the governed call did not succeed;
 * carries the envelope the pipeline produced.
 */
export class ToolCallFailedError extends Error {
  constructor(readonly envelope: ErrorEnvelope) {
    super(`${envelope.code}: ${envelope.error}`);
    this.name = 'ToolCallFailedError';
  }
}

/** A tool definition that breaks a rule; fails the boot with one message naming tool and rule. */
export class ToolDefinitionError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid tool definitions:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ToolDefinitionError';
  }
}

export { ErrorCode };
