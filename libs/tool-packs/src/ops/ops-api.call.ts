import { withRetry, type ToolContext } from '@toolgate/toolkit';
import type { OpsApiClient } from './ops-api.client.js';
import { opsApiConnector } from './ops-api.connector.js';
import { isServiceNotFound, serviceNotFound } from './ops.errors.js';

/**
 * Runs one ops API operation for a tool: the tenant's client, the call's abort signal, retries on
 * 5xx and network failures (never on 4xx), and "no such service" as a typed SERVICE_NOT_FOUND.
 * Every ops operation is safe to repeat — reads, and restarts carrying a stable idempotency key —
 * so all of them retry.
 */
export async function callOpsApi<T>(
  ctx: ToolContext,
  service: string,
  operation: (ops: OpsApiClient, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const ops = ctx.connector(opsApiConnector);
  const signal = ctx.abortSignal;
  try {
    return await withRetry(() => operation(ops, signal), { signal });
  } catch (err) {
    if (isServiceNotFound(err)) throw serviceNotFound(service, ctx.locale);
    throw err;
  }
}
