/** The value patterns a tenant may turn on; all are on by default. */
export const VALUE_PATTERNS = ['cn_id', 'mobile', 'bank_card', 'email'] as const;
/** One of `VALUE_PATTERNS`: `cn_id`, `mobile`, `bank_card` or `email`. */
export type ValuePattern = (typeof VALUE_PATTERNS)[number];

/** One sensitive value found inside a string. */
export interface Match {
  readonly pattern: ValuePattern;
  readonly start: number;
  readonly end: number;
  /** `text.slice(start, end)`, as written (separators, full-width digits, `+86` included). */
  readonly value: string;
}

/**
 * Values found in one text, in order, as parallel arrays: `text.slice(starts[i], ends[i])` is a
 * `patterns[i]`. No object and no substring per value, which counts when a megabyte holds a
 * hundred thousand of them.
 */
export class Spans {
  readonly patterns: ValuePattern[] = [];
  readonly starts: number[] = [];
  readonly ends: number[] = [];

  get length(): number {
    return this.starts.length;
  }

  add(pattern: ValuePattern, start: number, end: number): void {
    this.patterns.push(pattern);
    this.starts.push(start);
    this.ends.push(end);
  }
}
