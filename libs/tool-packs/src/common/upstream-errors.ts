/**
 * A non-2xx answer from an upstream API. Carries `status`, so the toolkit's `isRetryable` retries
 * 5xx/429 and leaves 4xx alone. The message names the upstream, the method and the status, then a
 * short upstream message with every known secret masked; never the path or the query, which come
 * from configuration and input and may carry secrets (`path` stays a property, for logs).
 * @example
 * catch (err) { if (err instanceof UpstreamHttpError && err.status === 404 && err.upstreamCode === 'SERVICE_NOT_FOUND') ... }
 */
export class UpstreamHttpError extends Error {
  override readonly name = 'UpstreamHttpError';

  constructor(
    /** The connector name, e.g. `ops_api`. */
    readonly upstream: string,
    readonly status: number,
    readonly method: string,
    /** The request path without its query. */
    readonly path: string,
    /** The short, redacted message the upstream gave, if any. */
    readonly upstreamMessage?: string,
    /** The machine-readable code the upstream gave (`error`, `error.code` or `code`), if any. */
    readonly upstreamCode?: string,
  ) {
    super(`${upstream} answered ${status} to ${method}${upstreamMessage ? `: ${upstreamMessage}` : ''}`);
  }
}

/**
 * The upstream could not be reached at all (refused, reset, DNS). No `status`, so `isRetryable`
 * treats it as transient. The message names the upstream and the system error code; `address`
 * (host and port) stays a property, since a host comes from configuration like a path does.
 */
export class UpstreamUnreachableError extends Error {
  override readonly name = 'UpstreamUnreachableError';

  constructor(
    readonly upstream: string,
    /** `host:port` of the upstream. */
    readonly address: string,
    /** The system error code (`ECONNREFUSED`, `ENOTFOUND`, ...), when there is one. */
    readonly reason?: string,
  ) {
    super(`${upstream} unreachable${reason ? ` (${reason})` : ''}`);
  }
}

/**
 * A 2xx answer whose body is not the JSON the client expects. Not retried: the same request would
 * get the same body. `status` is the HTTP status of that answer; like `UpstreamHttpError`, the
 * message leaves the path out.
 */
export class UpstreamFormatError extends Error {
  override readonly name = 'UpstreamFormatError';

  constructor(
    readonly upstream: string,
    readonly status: number,
    readonly method: string,
    /** The request path without its query, for logs. */
    readonly path: string,
    what: string,
  ) {
    super(`${upstream} answered ${status} to ${method} with ${what}`);
  }
}
