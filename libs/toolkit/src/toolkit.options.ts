import type { Locale } from './errors/messages.js';

/** Settings of the tool runtime, given to `ToolkitModule.forRoot`. */
export interface ToolkitOptions {
  /** The language of envelopes when a caller does not ask for one. */
  readonly defaultLocale: Locale;
  /** Inputs nested deeper are refused before anything runs (default MAX_INPUT_DEPTH). */
  readonly maxInputDepth?: number;
}

export const TOOLKIT_OPTIONS = Symbol('TOOLKIT_OPTIONS');
