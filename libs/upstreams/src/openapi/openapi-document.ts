import { compileErrors, dereference, validate, type ParserOptions } from '@readme/openapi-parser';
import { parse as parseYaml } from 'yaml';
import { assertBoundedExpansion } from './expansion-guard.js';
import { DEREFERENCE_TIMEOUT_MS } from './openapi-limits.js';
import { OpenApiSourceError } from './openapi-source-error.js';

/** A validated OpenAPI 3.x document as plain JSON data (internal `$ref`s resolved where acyclic). */
export type OpenApiDocument = Record<string, unknown> & {
  readonly openapi: string;
  readonly paths?: Record<string, unknown>;
  readonly servers?: readonly { readonly url?: unknown; readonly variables?: unknown }[];
};

/**
 * Only references inside the document are followed: an external `$ref` (URL or file) would let a
 * document make the gateway fetch addresses it chooses, so those are left unresolved (and read as
 * "any value" by the schema mapping). Cycles stay as internal `$ref`s for the mapping to cut.
 */
const PARSER_OPTIONS: ParserOptions = {
  resolve: { external: false, file: false },
  dereference: { circular: 'ignore' },
  timeoutMs: DEREFERENCE_TIMEOUT_MS,
};

/** Parses (JSON or YAML), validates and dereferences the text of an OpenAPI 3.0/3.1 document. */
export async function parseOpenApiDocument(text: string): Promise<OpenApiDocument> {
  const raw = parseDocumentText(text);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new OpenApiSourceError('invalid', 'The document is not a JSON or YAML object');
  }
  const version = (raw as Record<string, unknown>).openapi;
  if (typeof version !== 'string' || !/^3\.[01]\./.test(version)) {
    throw new OpenApiSourceError(
      'unsupported',
      'Only OpenAPI 3.0 and 3.1 documents are supported (Swagger 2.0 is not)',
    );
  }
  assertBoundedExpansion(raw as Record<string, unknown>);
  let result;
  try {
    result = await validate(raw as never, PARSER_OPTIONS);
  } catch (err) {
    throw new OpenApiSourceError('invalid', `The document cannot be read: ${firstLine(err)}`, { cause: err });
  }
  if (!result.valid) {
    throw new OpenApiSourceError(
      'invalid',
      `The document is not valid OpenAPI: ${summarize(compileErrors(result))}`,
    );
  }
  try {
    return (await dereference(raw as never, PARSER_OPTIONS)) as unknown as OpenApiDocument;
  } catch (err) {
    throw new OpenApiSourceError(
      'invalid',
      `The document's references cannot be resolved: ${firstLine(err)}`,
      {
        cause: err,
      },
    );
  }
}

function parseDocumentText(text: string): unknown {
  const trimmed = text.trimStart();
  try {
    // `yaml` caps alias expansion (maxAliasCount), so a "billion laughs" document is refused.
    return trimmed.startsWith('{') ? JSON.parse(trimmed) : parseYaml(trimmed, { maxAliasCount: 100 });
  } catch (err) {
    throw new OpenApiSourceError('invalid', `The document is neither JSON nor YAML: ${firstLine(err)}`);
  }
}

/** An absolute http(s) URL, or an OpenApiSourceError naming the setting. */
export function httpUrl(value: string, setting: string, base?: string): URL {
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    throw new OpenApiSourceError('invalid', `${setting} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OpenApiSourceError('invalid', `${setting} must be an http or https URL`);
  }
  return url;
}

/**
 * The base URL calls go to: the configured one, else the document's first server (its variables
 * set to their defaults) resolved against the document's own URL. A document may only name a base
 * on its own origin: the configured credentials go with every call, so a document (or a later
 * edit of it) pointing `servers` at another host needs the admin to configure that base.
 */
export function resolveBaseUrl(document: OpenApiDocument, documentUrl: string, configured?: string): URL {
  if (configured) return withoutFragment(httpUrl(configured, 'baseUrl'));
  const server = document.servers?.[0];
  let template = typeof server?.url === 'string' ? server.url : '/';
  const variables = (server?.variables ?? {}) as Record<string, { default?: unknown }>;
  template = template.replace(/\{([^}]+)\}/g, (_, name: string) => String(variables[name]?.default ?? ''));
  const base = withoutFragment(httpUrl(template, "the document's servers[0].url", documentUrl));
  if (base.origin !== new URL(documentUrl).origin) {
    throw new OpenApiSourceError(
      'invalid',
      `The document's servers[0].url is on another origin (${base.origin}); configure baseUrl to call it`,
    );
  }
  return base;
}

function withoutFragment(url: URL): URL {
  url.hash = '';
  return url;
}

/** The first meaningful line of an error's message, at most 300 characters. */
export function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return summarize(message);
}

function summarize(text: string): string {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^OpenAPI schema validation failed/.test(l))[0];
  return (line ?? 'unknown error').slice(0, 300);
}
