/**
 * Why the egress layer refused or stopped a request:
 * - `egress_denied`: the destination is not one the platform allows (ADR 026);
 * - `redirect`: the peer answered a redirect, which is never followed;
 * - `too_large`: the answer passed its byte bound and reading stopped;
 * - `unresolvable`: the host name has no address;
 * - `scheme`: not http(s).
 */
export type EgressFailure = 'egress_denied' | 'redirect' | 'too_large' | 'unresolvable' | 'scheme';

/**
 * Thrown by the egress layer. Its message is safe for a tenant admin: it never names the address
 * a host resolved to, nor which non-public range refused it (that would make the error an oracle
 * on the internal network); `detail` says it for the platform's logs.
 * @example if (err instanceof EgressError && err.failure === 'too_large') …
 */
export class EgressError extends Error {
  constructor(
    readonly failure: EgressFailure,
    message: string,
    /** For logs only: the resolved address and the range that refused it, never for an answer. */
    readonly detail?: string,
    /** The HTTP status of the answer that was refused (a redirect's 3xx). */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'EgressError';
  }
}

/** The EgressError in `err` or its causes (fetch wraps connector errors in `TypeError: fetch failed`). */
export function egressErrorOf(err: unknown): EgressError | undefined {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++)
    if (e instanceof EgressError) return e;
  return undefined;
}

/** The refusal of a destination, the same words whatever refused it. */
export function deniedError(detail: string): EgressError {
  return new EgressError(
    'egress_denied',
    'the destination is not allowed by the egress policy: loopback, private, link-local and other non-public addresses and the gateway itself are refused unless a platform admin allows the host (egress.allowHosts, egress.allowCidrs)',
    detail,
  );
}

/** An answer past its bound. */
export function tooLargeError(maxBytes: number): EgressError {
  return new EgressError('too_large', `the answer is too large (more than ${maxBytes} bytes)`);
}
