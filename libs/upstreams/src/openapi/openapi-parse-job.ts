// No @toolgate imports in this file's graph: the parse worker loads it (see openapi-parse-worker.ts).
import { parseOpenApiDocument, resolveBaseUrl } from './openapi-document.js';
import { mapOperations, type OpenApiOperation, type SkippedOperation } from './openapi-operations.js';
import { OpenApiSourceError, type OpenApiSourceFailure } from './openapi-source-error.js';

/** What the parse worker is given: the document's text and where it came from. */
export interface ParseJob {
  readonly text: string;
  readonly documentUrl: string;
  readonly baseUrl?: string;
}

/** A document read into tools: plain data, so it crosses the thread boundary as is. */
export interface ParsedDocument {
  readonly operations: OpenApiOperation[];
  readonly skipped: SkippedOperation[];
  /** Where calls go (`href`; a URL object cannot be posted between threads). */
  readonly baseUrl: string;
}

/** The worker's one answer. */
export type ParseAnswer =
  | { readonly ok: true; readonly document: ParsedDocument }
  | { readonly ok: false; readonly failure: OpenApiSourceFailure; readonly message: string };

/** Parses, validates and dereferences the document and maps its operations to tools. */
export async function runParseJob(job: ParseJob): Promise<ParseAnswer> {
  try {
    const document = await parseOpenApiDocument(job.text);
    const baseUrl = resolveBaseUrl(document, job.documentUrl, job.baseUrl).href;
    const { operations, skipped } = mapOperations(document);
    return { ok: true, document: { operations, skipped, baseUrl } };
  } catch (err) {
    if (err instanceof OpenApiSourceError) return { ok: false, failure: err.failure, message: err.message };
    // A parser bug or an unexpected shape: the admin gets a sentence, never a stack.
    const message = err instanceof Error ? err.message.split('\n')[0]!.slice(0, 300) : 'unknown error';
    return { ok: false, failure: 'invalid', message: `The document cannot be read: ${message}` };
  }
}
