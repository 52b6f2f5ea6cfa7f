import { DEFAULT_LOCALE, ErrorCode, cleanErrorMessage, errorEnvelope } from '@toolgate/toolkit';
import type { UpstreamCallOutcome } from '../sources/tool-source.js';

/**
 * An UPSTREAM_ERROR outcome, its message cleaned (URLs, credentials, stack lines removed). Rendered
 * in the default locale: the source does not know the caller's.
 */
export function upstreamError(message: string, details?: Record<string, unknown>): UpstreamCallOutcome {
  return {
    ok: false,
    envelope: errorEnvelope(
      ErrorCode.UPSTREAM_ERROR,
      DEFAULT_LOCALE,
      { message: cleanErrorMessage(message) },
      details,
    ),
  };
}
