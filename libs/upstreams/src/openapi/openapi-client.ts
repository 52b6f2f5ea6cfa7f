import {
  canonicalJson,
  DEFAULT_LOCALE,
  ErrorCode,
  errorEnvelope,
  invalidInputEnvelope,
} from '@toolgate/toolkit';
import type {
  UpstreamCallOptions,
  UpstreamCallOutcome,
  UpstreamClient,
  UpstreamToolDefinition,
} from '../sources/tool-source.js';
import { deadlineSignal, egressErrorOf, type EgressFetch } from '@toolgate/egress';
import { callPlanOf } from './call-plan.js';
import { createHash } from 'node:crypto';
import { fetchDocumentText } from './openapi-document-source.js';
import type { OpenApiOperation, SkippedOperation } from './openapi-operations.js';
import { parseDocumentOffThread } from './openapi-parse-pool.js';
import { OpenApiSourceError } from './openapi-source-error.js';
import { buildRequest } from './openapi-request.js';
import { readAnswer } from './openapi-response.js';
import { currentTraceparent } from '@toolgate/telemetry';
import { upstreamError } from './upstream-outcomes.js';

/** How to reach an OpenAPI service: its document, and what every request to it carries. */
export interface OpenApiClientOptions {
  /** Where the OpenAPI 3.0/3.1 document (JSON or YAML) is served; fetched again on every listing. */
  readonly documentUrl: string;
  /** Where calls go; default: the document's `servers[0].url`, resolved against `documentUrl`. */
  readonly baseUrl?: string;
  /** Sent with the document request and every call (credentials); they win over any argument. */
  readonly headers?: Record<string, string>;
  /** Time limit of the document request (each call has its own, from the tool). */
  readonly timeoutMs: number;
  /**
   * How every request goes out: the platform's egress policy (`Egress.fetch`), which refuses
   * non-public destinations and redirects and bounds every answer.
   */
  readonly fetch: EgressFetch;
  /** Called when a call finds the document's plan no longer the pinned one (a refresh is due). */
  readonly onPlanChanged?: () => void;
}

/** One reading of the document: its tools by name, and where calls go. */
interface Snapshot {
  readonly operations: ReadonlyMap<string, OpenApiOperation>;
  readonly skipped: readonly SkippedOperation[];
  readonly baseUrl: URL;
  /** SHA-256 of the document text it was read from. */
  readonly documentHash: string;
}

/**
 * An OpenAPI 3 service as a tool source: each operation is a tool (see openapi-operations.ts for
 * the mapping) and each call one HTTP request. Reads the document once before answering, so a
 * document that cannot be used fails the registration with an `OpenApiSourceError`.
 * @example const client = await createOpenApiClient({ documentUrl: 'https://crm.internal/openapi.json', timeoutMs: 10_000 })
 */
export async function createOpenApiClient(options: OpenApiClientOptions): Promise<UpstreamClient> {
  const client = new OpenApiClient(options);
  await client.listTools();
  return client;
}

class OpenApiClient implements UpstreamClient {
  private readonly fetch: EgressFetch;
  private readonly headers: Readonly<Record<string, string>>;
  /** Configured header values, and their words (a token after `Bearer`), masked in quoted errors. */
  private readonly secrets: readonly string[];
  private snapshot?: Snapshot;
  private closed = false;

  constructor(private readonly options: OpenApiClientOptions) {
    this.fetch = options.fetch;
    // Validates the names and values once (a CR/LF in a configured header throws here, not per call).
    this.headers = Object.fromEntries(new Headers(options.headers ?? {}).entries());
    this.secrets = Object.values(this.headers).flatMap((value) => [value, ...value.split(/\s+/)]);
  }

  async listTools(signal?: AbortSignal): Promise<UpstreamToolDefinition[]> {
    const text = await fetchDocumentText({
      documentUrl: this.options.documentUrl,
      headers: this.headers,
      timeoutMs: this.options.timeoutMs,
      fetch: this.fetch,
      signal,
    });
    const documentHash = createHash('sha256').update(text).digest('hex');
    // Reading a document costs a thread and a second or more of CPU: a periodic refresh of an
    // unchanged document skips it.
    if (this.snapshot?.documentHash !== documentHash) {
      const { operations, skipped, baseUrl } = await parseDocumentOffThread({
        text,
        documentUrl: this.options.documentUrl,
        baseUrl: this.options.baseUrl,
      });
      if (this.closed) throw new OpenApiSourceError('unreachable', 'The source was closed');
      this.snapshot = {
        operations: new Map(operations.map((operation) => [operation.definition.name, operation])),
        skipped,
        baseUrl: new URL(baseUrl),
        documentHash,
      };
    }
    const baseUrl = this.snapshot.baseUrl;
    return [...this.snapshot.operations.values()].map((operation) => ({
      ...operation.definition,
      callPlan: callPlanOf(operation.plan, baseUrl),
    }));
  }

  async callTool(name: string, args: unknown, options: UpstreamCallOptions): Promise<UpstreamCallOutcome> {
    const operation = this.snapshot?.operations.get(name);
    if (this.closed || !this.snapshot || !operation) {
      return upstreamError(`the service's document describes no operation "${name}"`);
    }
    if (
      options.callPlan &&
      canonicalJson(callPlanOf(operation.plan, this.snapshot.baseUrl)) !== canonicalJson(options.callPlan)
    ) {
      // The document moved the operation (method, path, base, parameters, body) since it was
      // pinned: nothing is sent until a tenant admin has reviewed the new plan.
      this.options.onPlanChanged?.();
      return upstreamError(
        `the service's document changed how "${name}" is called since it was reviewed; it waits for review`,
      );
    }
    const request = buildRequest(operation.plan, args, this.snapshot.baseUrl, this.headers);
    if (!request.ok) {
      return {
        ok: false,
        envelope: invalidInputEnvelope(
          [{ kind: 'other', path: [request.argName], message: request.message }],
          DEFAULT_LOCALE,
        ),
      };
    }
    if (options.idempotencyKey && operation.plan.method !== 'GET' && operation.plan.method !== 'HEAD') {
      request.init.headers.set('idempotency-key', options.idempotencyKey);
    }
    // Joins the caller's trace when tracing is on (ADR 019).
    const traceparent = currentTraceparent();
    if (traceparent) request.init.headers.set('traceparent', traceparent);
    const deadline = deadlineSignal(options.timeoutMs, options.signal);
    try {
      const response = await this.fetch(request.url, {
        ...request.init,
        redirect: 'manual',
        signal: deadline.signal,
      });
      return await readAnswer(response, this.secrets);
    } catch (err) {
      // The executor answers TIMEOUT or the cancellation itself; give the signal's reason back at once.
      if (options.signal.aborted) throw options.signal.reason;
      const egress = egressErrorOf(err);
      if (egress) return upstreamError(egress.message, { failure: egress.failure });
      if (deadline.timedOut()) {
        return {
          ok: false,
          envelope: errorEnvelope(ErrorCode.TIMEOUT, DEFAULT_LOCALE, { timeoutMs: options.timeoutMs }),
        };
      }
      return upstreamError(`the service cannot be reached (${networkReason(err)})`);
    } finally {
      deadline.dispose();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.snapshot = undefined;
  }
}

function networkReason(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown } } | undefined)?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  return err instanceof Error ? err.message : 'network error';
}
