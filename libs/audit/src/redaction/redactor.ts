import { createHmac } from 'node:crypto';
import { canonicalValue, findSpans, maskSpan, VALUE_PATTERNS, type ValuePattern } from './value-patterns.js';

/** How a tenant wants sensitive values stored. */
export interface RedactionPolicy {
  /** `mask` keeps a recognisable shape; `fingerprint` keeps a keyed hash so equal values can be matched. */
  readonly mode: 'mask' | 'fingerprint';
  readonly patterns: readonly ValuePattern[];
}

/** Masks every pattern: what a tenant gets when its settings say nothing. */
export const DEFAULT_REDACTION_POLICY: RedactionPolicy = { mode: 'mask', patterns: [...VALUE_PATTERNS] };

/**
 * Keys whose values are secrets whatever they look like. Plain alternatives without nested
 * quantifiers: the engine tries each at each position once, so long keys cost linear time.
 */
const SECRET_KEY =
  /pass(?:word|wd|phrase)?|secret|token|api[-_]?key|authori[sz]ation|cookie|credential|private[-_]?key|session[-_]?key/i;

/**
 * Keyed fingerprints one redaction makes at most. Each is an HMAC (a few µs): a megabyte dense with
 * phone numbers would hold the event loop for a third of a second. Past the budget values are
 * masked instead — still redacted, only no longer matchable.
 */
export const MAX_FINGERPRINTS_PER_REDACTION = 2_000;

/** What a sensitive field or a secret-looking key's value becomes in `mask` mode. */
export const REDACTED = '[REDACTED]';

/**
 * Redacts a value before anything is stored: fields marked sensitive in the schema, secret-looking
 * keys, and values matching the tenant's patterns (resident ID, mobile, bank card, e-mail).
 * Never mutates its input.
 */
export class Redactor {
  private readonly patterns: ReadonlySet<ValuePattern>;
  /** Fingerprints left in the redaction under way (redaction is synchronous: one at a time). */
  private fingerprintsLeft = 0;
  private depth = 0;

  constructor(
    private readonly policy: RedactionPolicy,
    /** The tenant's fingerprint key (HMAC-SHA-256). */
    private readonly fingerprintKey: Buffer,
  ) {
    this.patterns = new Set(policy.patterns);
  }

  /**
   * The redacted copy of a value; `sensitivePaths` use `*` for array elements and record values.
   * Object keys are redacted like strings, and so are integers whose digits form a pattern (a
   * phone sent as a JSON number becomes the masked string).
   */
  redact(value: unknown, sensitivePaths: readonly (readonly string[])[] = []): unknown {
    return this.budgeted(() => this.walk(value, sensitivePaths, 0));
  }

  /** Redacts the values inside one string. */
  redactText(text: string): string {
    return this.budgeted(() => this.redactSpans(text));
  }

  private budgeted<T>(work: () => T): T {
    if (this.depth++ === 0) this.fingerprintsLeft = MAX_FINGERPRINTS_PER_REDACTION;
    try {
      return work();
    } finally {
      this.depth--;
    }
  }

  private redactSpans(text: string): string {
    const spans = findSpans(text, this.patterns);
    if (!spans.length) return text;
    let out = '';
    let at = 0;
    for (let i = 0; i < spans.length; i++) {
      const start = spans.starts[i];
      const end = spans.ends[i];
      out += text.slice(at, start) + this.replacement(spans.patterns[i], text, start, end);
      at = end;
    }
    return out + text.slice(at);
  }

  private replacement(pattern: ValuePattern, text: string, start: number, end: number): string {
    if (this.policy.mode === 'mask' || this.fingerprintsLeft-- <= 0)
      return maskSpan(pattern, text, start, end);
    return `fp:${pattern}:${this.fingerprint(canonicalValue(pattern, text.slice(start, end)))}`;
  }

  /** The whole-value replacement for sensitive fields and secret keys. */
  private sealed(value: unknown): string {
    const fingerprintable = typeof value === 'string' || typeof value === 'number';
    if (this.policy.mode === 'fingerprint' && fingerprintable && this.fingerprintsLeft-- > 0) {
      return `fp:${this.fingerprint(String(value))}`;
    }
    return REDACTED;
  }

  private fingerprint(value: string): string {
    return createHmac('sha256', this.fingerprintKey).update(value).digest('hex').slice(0, 24);
  }

  private walk(value: unknown, paths: readonly (readonly string[])[], depth: number): unknown {
    if (paths.length && paths.some((p) => p.length === depth)) return this.sealed(value);
    if (typeof value === 'string') return this.redactSpans(value);
    if (typeof value === 'number') return this.redactNumber(value);
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      const childPaths = paths.length ? paths.filter((p) => p[depth] === '*') : paths;
      return value.map((v) => this.walk(v, childPaths, depth + 1));
    }
    return this.walkObject(value as Record<string, unknown>, paths, depth);
  }

  /** An integer is digits like any other; larger numbers have lost their digits already. */
  private redactNumber(value: number): number | string {
    if (!Number.isSafeInteger(value)) return value;
    const text = String(value);
    const redacted = this.redactSpans(text);
    return redacted === text ? value : redacted;
  }

  private walkObject(
    value: Record<string, unknown>,
    paths: readonly (readonly string[])[],
    depth: number,
  ): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const keys = new UniqueKeys(out);
    for (const key of Object.keys(value)) {
      setOwn(out, keys.claim(this.redactSpans(key)), this.walkEntry(key, value[key], paths, depth));
    }
    return out;
  }

  private walkEntry(
    key: string,
    value: unknown,
    paths: readonly (readonly string[])[],
    depth: number,
  ): unknown {
    if (SECRET_KEY.test(key)) {
      return value === null || value === undefined || value === '' ? value : this.sealed(value);
    }
    const childPaths = paths.length ? paths.filter((p) => p[depth] === key || p[depth] === '*') : paths;
    return this.walk(value, childPaths, depth + 1);
  }
}

/** Sets an own data property; a `__proto__` key stays data instead of replacing the prototype. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/**
 * Keys of one redacted object. Two keys may redact to the same text (two phones with the same
 * first three and last four digits); the later becomes `138****5678 #2` so no value is lost.
 */
class UniqueKeys {
  /** The next suffix to try per key, so many equal keys cost linear time, not quadratic. */
  private suffixes?: Map<string, number>;

  constructor(private readonly target: object) {}

  claim(key: string): string {
    if (!Object.hasOwn(this.target, key)) return key;
    this.suffixes ??= new Map();
    let n = this.suffixes.get(key) ?? 2;
    let candidate = `${key} #${n++}`;
    while (Object.hasOwn(this.target, candidate)) candidate = `${key} #${n++}`;
    this.suffixes.set(key, n);
    return candidate;
  }
}
