import { deadlineSignal, egressErrorOf, readBoundedBody, type EgressFetch } from '@toolgate/egress';
import { firstLine, httpUrl } from './openapi-document.js';
import { MAX_DOCUMENT_BYTES } from './openapi-limits.js';
import { OpenApiSourceError } from './openapi-source-error.js';

// Fetching runs on the gateway's thread (it goes through the egress policy); parsing, in
// openapi-document.ts, runs in a worker whose files cannot import the libs.

/** Where and how to read a document. */
export interface DocumentSource {
  readonly documentUrl: string;
  readonly headers?: Record<string, string>;
  readonly timeoutMs: number;
  readonly fetch: EgressFetch;
  readonly signal?: AbortSignal;
}

/**
 * The document's text, fetched with a time limit, a size limit and no redirects, through the
 * egress policy: a refused destination or a redirect is the admin's input to fix (`egress_denied`,
 * `redirect`), and no answer's body is quoted.
 */
export async function fetchDocumentText(source: DocumentSource): Promise<string> {
  const url = httpUrl(source.documentUrl, 'documentUrl');
  const deadline = deadlineSignal(source.timeoutMs, source.signal);
  try {
    const response = await source.fetch(url, {
      headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5', ...source.headers },
      // A redirect could carry the configured credentials to another host; the admin gives the final URL.
      redirect: 'manual',
      signal: deadline.signal,
    });
    if (response.status < 200 || response.status > 299) {
      await response.body?.cancel().catch(() => undefined);
      throw new OpenApiSourceError('unreachable', `Fetching the document answered HTTP ${response.status}`);
    }
    const body = await readBoundedBody(response, MAX_DOCUMENT_BYTES);
    if (!body.ok) {
      throw new OpenApiSourceError('too_large', `The document is larger than ${MAX_DOCUMENT_BYTES} bytes`);
    }
    return body.bytes.toString('utf8');
  } catch (err) {
    if (err instanceof OpenApiSourceError) throw err;
    const egress = egressErrorOf(err);
    if (egress?.failure === 'too_large')
      throw new OpenApiSourceError('too_large', `The document is larger than ${MAX_DOCUMENT_BYTES} bytes`);
    if (egress && egress.failure !== 'unresolvable')
      throw new OpenApiSourceError(
        egress.failure === 'redirect' ? 'redirect' : 'egress_denied',
        egress.message,
      );
    const why = deadline.timedOut() ? `timed out after ${source.timeoutMs} ms` : firstLine(err);
    throw new OpenApiSourceError('unreachable', `The document cannot be fetched: ${why}`, { cause: err });
  } finally {
    deadline.dispose();
  }
}
