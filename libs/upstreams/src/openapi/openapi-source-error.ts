/**
 * Why an OpenAPI document could not be used as a tool source. `egress_denied` and `redirect`: the
 * platform's egress policy refused the document's or the calls' destination, or the server
 * answered a redirect (never followed).
 */
export type OpenApiSourceFailure =
  'unreachable' | 'too_large' | 'invalid' | 'unsupported' | 'egress_denied' | 'redirect';

/**
 * Thrown when an OpenAPI document cannot be fetched, parsed or mapped to tools. The message is safe
 * to show an admin (no credentials, no stack); the admin API maps it to its own envelope.
 * @example new OpenApiSourceError('invalid', 'The document is not OpenAPI 3.x')
 */
export class OpenApiSourceError extends Error {
  readonly failure: OpenApiSourceFailure;

  constructor(failure: OpenApiSourceFailure, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OpenApiSourceError';
    this.failure = failure;
  }
}
