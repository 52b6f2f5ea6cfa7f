import type { ServerResponse } from 'node:http';
import type { CallAbortSignal } from '@toolgate/toolkit';

/**
 * Fires when the client goes away before its answer is sent: one `close` listener on the response
 * ('close' also fires after a normal answer, when the response has ended, and then it does not
 * fire). Not an AbortController on purpose: building one per call (an EventTarget, its signal and
 * their listeners) cost ~4% of the governed L0 route in the CPU profile, for the few clients that
 * leave early; the call's own `ctx.abortSignal` is still a real AbortSignal, built when a tool asks.
 */
export class ClientGoneSignal implements CallAbortSignal {
  aborted = false;
  reason: unknown = undefined;
  private listeners: (() => void)[] | undefined;

  constructor(private readonly response: ServerResponse) {
    // The client may have left while the key and the agent were being looked up.
    // `on`, not `once`: a response closes once, and `once` wraps the listener in two more objects.
    if (response.closed) this.onClose();
    else response.on('close', this.onClose);
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners?.indexOf(listener) ?? -1;
    if (at >= 0) this.listeners!.splice(at, 1);
  }

  private readonly onClose = (): void => {
    if (this.response.writableEnded || this.aborted) return;
    this.aborted = true;
    this.reason = new DOMException('the client closed the connection', 'AbortError');
    // Each listener once, like an AbortSignal's: the list is dropped before they run.
    const listeners = this.listeners ?? [];
    this.listeners = undefined;
    for (const listener of listeners) listener();
  };
}
