import { Response as BoundedResponse } from 'undici';
import { egressErrorOf, tooLargeError } from './egress-error.js';

/** Statuses whose response has no body (a Response with one cannot be built). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

const isTooLarge = (err: unknown) => egressErrorOf(err)?.failure === 'too_large';

/** A response body read up to a byte limit, or the news that it was larger. */
export type BoundedBody = { readonly ok: true; readonly bytes: Buffer } | { readonly ok: false };

/**
 * Reads a fetch response's body, giving up (and cancelling the stream, so the socket is released)
 * as soon as it passes `maxBytes`. A declared Content-Length over the limit is refused unread.
 */
export async function readBoundedBody(response: Response, maxBytes: number): Promise<BoundedBody> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return { ok: false };
  }
  if (!response.body) return { ok: true, bytes: Buffer.alloc(0) };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return { ok: false };
      }
      chunks.push(value);
    }
  } catch (err) {
    // The stream's own bound (limitBody) stopped it first: the same news.
    if (isTooLarge(err)) return { ok: false };
    throw err;
  }
  return { ok: true, bytes: Buffer.concat(chunks, size) };
}

/**
 * At most the first `maxBytes` of a body as text; the rest is not read (the stream is cancelled).
 * For answers only partly needed: a webhook's acknowledgement, a robot's `{errcode}`.
 */
export async function readTextPrefix(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch (err) {
    if (!isTooLarge(err)) throw err;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks, size).subarray(0, maxBytes).toString('utf8');
}

/**
 * The same response with a body that errors (`EgressError` `too_large`) as soon as more than
 * `maxBytes` arrive, cancelling the source so the connection is dropped instead of drained. A
 * declared Content-Length over the bound is refused before a byte is read. Whoever reads the body
 * later, however carelessly (`response.json()`, an SDK's stream parser), reads at most the bound.
 * `onExceeded` runs once when the bound is passed.
 */
export function limitBody(response: Response, maxBytes: number, onExceeded?: () => void): Response {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    void response.body?.cancel().catch(() => undefined);
    onExceeded?.();
    throw tooLargeError(maxBytes);
  }
  if (!response.body || NULL_BODY_STATUSES.has(response.status)) return response;
  let size = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > maxBytes) {
        onExceeded?.();
        controller.error(tooLargeError(maxBytes));
        return;
      }
      controller.enqueue(chunk);
    },
  });
  return new BoundedResponse(response.body.pipeThrough(counter), {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers],
  }) as unknown as Response;
}

/**
 * A signal that fires when `parent` does or after `timeoutMs`, and a `dispose` that clears the
 * timer: `AbortSignal.timeout` cannot be cleared, so each finished request would leave one behind.
 */
export function deadlineSignal(
  timeoutMs: number,
  parent?: AbortSignal,
): { signal: AbortSignal; timedOut: () => boolean; dispose: () => void } {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  const onParentAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    dispose: () => {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}
