/** The largest OpenAPI document the gateway reads (bytes); real service descriptions are far smaller. */
export const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;

/** How much of an upstream error body an envelope quotes (characters, before cleaning). */
export const ERROR_EXCERPT_CHARS = 200;

/**
 * Schema nodes one tool's input or output schema may expand to once internal `$ref`s are inlined.
 * A document of a few KB can reference the same schema twice per level and expand to billions of
 * nodes; past this budget the operation is refused instead of holding the event loop.
 */
export const MAX_SCHEMA_NODES = 20_000;

/** Schema nodes all of a document's tools may expand to together (bounds a listing's CPU time). */
export const MAX_DOCUMENT_SCHEMA_NODES = 200_000;

/** How long the parser may spend dereferencing a document (ms). */
export const DEREFERENCE_TIMEOUT_MS = 5_000;

/** The operations a document may describe (a larger one is refused). */
export const MAX_OPERATIONS = 1_000;

/**
 * Nodes a document may expand to once its internal `$ref`s are resolved (checked before parsing:
 * the parser's dereferencing is synchronous, so this bounds how long one import holds the event loop).
 */
export const MAX_EXPANDED_NODES = 200_000;

/** How deeply a document's objects may nest (deeper ones are refused, not walked). */
export const MAX_NESTING_DEPTH = 200;

/**
 * How long one document may take to parse, validate, dereference and map in its thread (ms);
 * the thread is terminated past it. A real document takes one or two seconds on a busy machine.
 */
export const PARSE_TIME_LIMIT_MS = 10_000;

/** Heap of a parse thread (MB): a document that needs more is refused, not swapped in. */
export const PARSE_WORKER_HEAP_MB = 256;

/** Documents parsed at once per process (each in its own thread); more wait their turn. */
export const PARSE_WORKERS = 2;
