import { ToolError, type Locale } from '@toolgate/toolkit';
import { UpstreamHttpError } from '../common/upstream-errors.js';

/** The code the ops API gives for a service it does not know. */
const UPSTREAM_SERVICE_NOT_FOUND = 'SERVICE_NOT_FOUND';

/** True when the ops API answered "no such service" (not merely "no such route"). */
export function isServiceNotFound(err: unknown): boolean {
  return (
    err instanceof UpstreamHttpError && err.status === 404 && err.upstreamCode === UPSTREAM_SERVICE_NOT_FOUND
  );
}

/**
 * The agent-facing failure for an unknown service, in the caller's language: says what was wrong
 * and how to recover, so the model can correct itself (docs/tool-design-rules.md §4.9).
 */
export function serviceNotFound(service: string, locale: Locale): ToolError {
  return locale === 'en'
    ? new ToolError(
        'SERVICE_NOT_FOUND',
        `Service "${service}" does not exist in the ops API`,
        'Check the spelling of the service name (e.g. payment-api), or ask the user for the exact name',
      )
    : new ToolError(
        'SERVICE_NOT_FOUND',
        `服务 ${service} 在运维 API 中不存在`,
        '检查服务名拼写（例如 payment-api），或向用户确认准确的服务名',
      );
}
