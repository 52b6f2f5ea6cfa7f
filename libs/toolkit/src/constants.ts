/** Limits and defaults of the tool runtime, in one place. */

/** Default time limit of a tool call (docs/tool-design-rules.md §A3: 10 s covers 95% of normal operations). */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** The longest time limit a tool may declare (business operations). */
export const MAX_TIMEOUT_MS = 30_000;
/** Tool names are snake_case and fit every model provider's limit (OpenAI: 64). */
export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
export const MAX_TOOL_NAME_LENGTH = 64;
/** The implementation name of a tool that has only one. */
export const DEFAULT_IMPLEMENTATION = 'default';
/** Upstream error messages are cut to this many characters before they reach an envelope. */
export const MAX_ERROR_MESSAGE_LENGTH = 500;
/** A base64 file part above this size gets a warning (docs/tool-design-rules.md §4.5). */
export const FILE_PART_WARN_BYTES = 3 * 1024 * 1024;
/** Inputs nested deeper than this are refused before anything runs or is stored. */
export const MAX_INPUT_DEPTH = 64;

/**
 * Deepest output a tool may return. Every consumer (audit redaction, JSON encoding, clients) walks
 * it recursively; past this the call fails as OUTPUT_INVALID instead of overflowing a stack.
 */
export const MAX_OUTPUT_DEPTH = 128;
