import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ModelError } from '../model-client.js';

const MAX_PROVIDER_MESSAGE = 200;

/**
 * What a failed call of the openai client becomes. The client has already retried what may be
 * retried (429, 5xx, connection failures); what is left is final. An abort is not a model failure:
 * the caller's signal reason is rethrown so the caller sees its own cancellation or deadline.
 */
export function toModelError(
  provider: string,
  error: unknown,
  secrets: { apiKey?: string; timeoutMs: number; signal?: AbortSignal },
): unknown {
  if (error instanceof APIUserAbortError) return secrets.signal?.reason ?? error;
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelError(
      'MODEL_UNAVAILABLE',
      `model provider ${provider} did not answer within ${secrets.timeoutMs} ms`,
    );
  }
  if (error instanceof APIConnectionError) {
    return new ModelError('MODEL_UNAVAILABLE', `model provider ${provider} could not be reached`);
  }
  if (error instanceof APIError) {
    const status = error.status;
    const detail = providerMessage(error, secrets.apiKey);
    const reason = `model provider ${provider} answered ${status ?? 'without a status'}${detail ? `: ${detail}` : ''}`;
    const unavailable = status === undefined || status === 408 || status === 429 || status >= 500;
    return new ModelError(unavailable ? 'MODEL_UNAVAILABLE' : 'MODEL_REJECTED', reason, status);
  }
  return error;
}

/** The provider's own short message, without the key should it echo it. */
function providerMessage(error: APIError, apiKey: string | undefined): string {
  const body = error.error as { message?: unknown } | undefined;
  let message = typeof body?.message === 'string' ? body.message : '';
  if (apiKey) message = message.replaceAll(apiKey, '[REDACTED]');
  message = message.replace(/\s+/g, ' ').trim();
  return message.length > MAX_PROVIDER_MESSAGE ? `${message.slice(0, MAX_PROVIDER_MESSAGE)}…` : message;
}
