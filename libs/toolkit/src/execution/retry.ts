/** Options of `withRetry`. */
export interface RetryOptions {
  /** Attempts in all, the first included. Default 3. */
  attempts?: number;
  /** Delay before the second attempt; doubles each time. Default 200 ms. */
  baseDelayMs?: number;
  /** Stops waiting and retrying when it fires; pass `ctx.abortSignal`. */
  signal?: AbortSignal;
  /** Whether an error is worth another attempt. Default: `isRetryable`. */
  retryOn?: (error: unknown) => boolean;
}

/** An error carrying an HTTP status, as thrown by the connectors' HTTP client. */
export interface HttpStatusError {
  status: number;
}

/**
 * Default retry rule: network failures and 5xx/429 answers are retried; 4xx answers are not
 * (docs/tool-design-rules.md §4.9: "4xx 重试没意义"), nor is an abort.
 */
export function isRetryable(error: unknown): boolean {
  if (error && typeof error === 'object') {
    if ((error as Error).name === 'AbortError' || (error as Error).name === 'TimeoutError') return false;
    const status = (error as Partial<HttpStatusError>).status;
    if (typeof status === 'number') return status >= 500 || status === 429;
  }
  return true;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Retries an operation with exponential backoff. The platform never retries a tool by itself;
 * a tool whose upstream is safe to retry opts in with this helper.
 * @example
 * const res = await withRetry(() => client.get(`/services/${service}`), { signal: ctx.abortSignal });
 */
export async function withRetry<T>(
  operation: (attempt: number) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const attempts = Math.max(1, options.attempts ?? 3);
  const base = options.baseDelayMs ?? 200;
  const retryOn = options.retryOn ?? isRetryable;
  let lastError: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (options.signal?.aborted) throw options.signal.reason;
    try {
      return await operation(attempt);
    } catch (err) {
      lastError = err;
      if (attempt === attempts - 1 || !retryOn(err) || options.signal?.aborted) throw err;
      await sleep(base * 2 ** attempt, options.signal);
    }
  }
  throw lastError;
}
