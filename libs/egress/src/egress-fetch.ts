import type { ConnectionOptions } from 'node:tls';
import { Agent, buildConnector, type Dispatcher, fetch as undiciFetch } from 'undici';
import { limitBody } from './bounded-body.js';
import { EgressError, egressErrorOf } from './egress-error.js';
import { MAX_ANSWER_BYTES, REDIRECT_STATUSES } from './egress-limits.js';
import type { EgressPolicy } from './egress-policy.js';
import { pinnedConnector } from './pinned-connector.js';

/** A fetch that goes out only through the egress policy (the shape SDKs take as their `fetch` option). */
export type EgressFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** How a fetch built by `createEgressFetch` treats answers. */
export interface EgressFetchOptions {
  /** Bytes of any one answer read at most (default MAX_ANSWER_BYTES); past it the body errors `too_large`. */
  readonly maxResponseBytes?: number;
  /** Called when an answer passes the bound (before its body errors), e.g. to fail the request it answers. */
  readonly onTooLarge?: (init: RequestInit | undefined) => void;
  /** The connection pool to use (`egressDispatcher(policy)`); a new one by default. */
  readonly dispatcher?: Dispatcher;
}

/**
 * A connection pool whose every connection goes through `policy` (see pinnedConnector); `tls`
 * adds a CA or a client certificate (a SIEM receiver with a private CA), never less checking.
 */
export function egressDispatcher(
  policy: EgressPolicy,
  tls?: Pick<ConnectionOptions, 'ca' | 'cert' | 'key'>,
): Dispatcher {
  if (!tls) return new Agent({ connect: pinnedConnector(policy) });
  const { ca, cert, key } = tls;
  return new Agent({
    connect: pinnedConnector(policy, buildConnector({ ca, cert, key } as buildConnector.BuildOptions)),
  });
}

/**
 * A fetch whose every connection is checked and pinned by `policy` (`pinnedConnector`), that never
 * follows a redirect (a 3xx answer throws `EgressError` `redirect`: the URL given is the URL used,
 * and credentials stay where they were sent) and whose answers are bounded (`limitBody`).
 * Failures of the policy reject with the `EgressError` itself, not fetch's "fetch failed".
 * @example
 * const fetch = createEgressFetch(policy);
 * const res = await fetch('https://hooks.example.com/x', { method: 'POST', body, signal });
 */
export function createEgressFetch(policy: EgressPolicy, options: EgressFetchOptions = {}): EgressFetch {
  const dispatcher = options.dispatcher ?? egressDispatcher(policy);
  const maxBytes = options.maxResponseBytes ?? MAX_ANSWER_BYTES;
  return async (input, init) => {
    const url = new URL(input);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new EgressError('scheme', `only http and https URLs are allowed, not ${url.protocol}`);
    let response: Response;
    try {
      response = (await undiciFetch(url, {
        ...(init as object),
        redirect: 'manual',
        dispatcher,
      })) as unknown as Response;
    } catch (err) {
      throw egressErrorOf(err) ?? err;
    }
    if (REDIRECT_STATUSES.has(response.status)) {
      await response.body?.cancel().catch(() => undefined);
      throw new EgressError(
        'redirect',
        `the server answered with a redirect (HTTP ${response.status}), which the gateway does not follow: use the final URL`,
        undefined,
        response.status,
      );
    }
    return limitBody(response, maxBytes, () => options.onTooLarge?.(init));
  };
}
