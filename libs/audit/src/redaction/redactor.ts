import { createHash, createHmac } from 'node:crypto';
import type { MarkedField, PiClass } from '@toolgate/toolkit';
import { maskChineseNames } from './chinese-names.js';
import { canonicalValue, findSpans, maskSpan, VALUE_PATTERNS, type ValuePattern } from './value-patterns.js';

/** Every value pattern: what a `personal` field's partial mask recognises, whatever the tenant turned on. */
const ALL_PATTERNS: ReadonlySet<ValuePattern> = new Set(VALUE_PATTERNS);

/** How much of a capped value's redacted JSON is kept (CONTRACT.md "Stored payloads"). */
export const CAPPED_HEAD_BYTES = 4096;

/** What a stored input or output beyond `audit.storedPayloadMaxBytes` becomes (ADR 036). */
export interface CappedPayload {
  readonly capped: true;
  /** SHA-256 of the whole redacted JSON text. */
  readonly sha256: string;
  /** Its size in bytes. */
  readonly size: number;
  /** Its first CAPPED_HEAD_BYTES bytes (cut on a character boundary). */
  readonly head: string;
}

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
    /** Stored inputs and outputs larger than this (redacted JSON, bytes) are kept as a `CappedPayload`. */
    private readonly storedPayloadMaxBytes = Number.POSITIVE_INFINITY,
  ) {
    this.patterns = new Set(policy.patterns);
  }

  /** Chinese personal names are masked too in the redaction under way (the tool opted in). */
  private names = false;

  /**
   * The redacted copy of a value; marked fields (paths use `*` for array elements and record
   * values) are masked as their class says. Object keys are redacted like strings, and so are
   * integers whose digits form a pattern (a phone sent as a JSON number becomes the masked string).
   * `names`: standalone Chinese personal names are masked as well (tools with `redactNames`).
   */
  redact(value: unknown, fields: readonly MarkedField[] = [], names = false): unknown {
    return this.budgeted(names, () => this.walk(value, fields, 0));
  }

  /**
   * A copy of `value` with only the named fields replaced as their class says (issue 26: a rule's
   * or guardrail's `mask`, applied to what the tool or the model sees): nothing else is touched —
   * no pattern scan, no secret keys — and what no path reaches is shared, not copied. Paths use
   * `*` for every array element or record value; a path that reaches nothing masks nothing.
   */
  maskFields(value: unknown, fields: readonly MarkedField[]): unknown {
    if (!fields.length) return value;
    return this.budgeted(false, () => this.maskAt(value, fields, 0));
  }

  /** Redacts the values inside one string. */
  redactText(text: string, names = false): string {
    return this.budgeted(names, () => this.redactSpans(text));
  }

  /**
   * A redacted value as it may be stored: itself, or past `audit.storedPayloadMaxBytes` of JSON a
   * `CappedPayload` (hash, size, head). Undefined and null stay as they are.
   */
  cap(value: unknown): unknown {
    if (value === undefined || value === null || !Number.isFinite(this.storedPayloadMaxBytes)) return value;
    const text = JSON.stringify(value);
    // A string's UTF-8 size is at most three bytes per UTF-16 unit: most values need no count.
    if (text.length * 3 <= this.storedPayloadMaxBytes) return value;
    const bytes = Buffer.from(text);
    if (bytes.length <= this.storedPayloadMaxBytes) return value;
    let end = Math.min(CAPPED_HEAD_BYTES, this.storedPayloadMaxBytes, bytes.length);
    while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
    const capped: CappedPayload = {
      capped: true,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size: bytes.length,
      head: bytes.subarray(0, end).toString(),
    };
    return capped;
  }

  private budgeted<T>(names: boolean, work: () => T): T {
    if (this.depth++ === 0) {
      this.fingerprintsLeft = MAX_FINGERPRINTS_PER_REDACTION;
      this.names = names;
    }
    try {
      return work();
    } finally {
      this.depth--;
    }
  }

  private redactSpans(text: string): string {
    const spans = findSpans(text, this.patterns);
    if (!spans.length) return this.names ? maskChineseNames(text) : text;
    if (this.names) return maskChineseNames(this.maskSpans(text, spans));
    return this.maskSpans(text, spans);
  }

  private maskSpans(text: string, spans: ReturnType<typeof findSpans>): string {
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

  /**
   * The whole-value replacement for marked fields (by class) and secret keys (`piClass`
   * undefined: sealed as always). `sensitive_personal` is never kept in any form, not even a
   * fingerprint (its values are few enough to enumerate); `personal` keeps a partial mask.
   */
  private sealed(value: unknown, piClass?: PiClass): unknown {
    if (piClass === 'sensitive_personal') return REDACTED;
    const fingerprintable = typeof value === 'string' || typeof value === 'number';
    if (this.policy.mode === 'fingerprint' && fingerprintable && this.fingerprintsLeft-- > 0) {
      return `fp:${this.fingerprint(String(value))}`;
    }
    return piClass === 'personal' ? partialMask(value) : REDACTED;
  }

  private fingerprint(value: string): string {
    return createHmac('sha256', this.fingerprintKey).update(value).digest('hex').slice(0, 24);
  }

  private walk(value: unknown, paths: readonly MarkedField[], depth: number): unknown {
    if (paths.length) {
      const here = paths.find((p) => p.path.length === depth);
      if (here) return this.sealed(value, here.piClass);
    }
    if (typeof value === 'string') return this.redactSpans(value);
    if (typeof value === 'number') return this.redactNumber(value);
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      const childPaths = paths.length ? paths.filter((p) => p.path[depth] === '*') : paths;
      return value.map((v) => this.walk(v, childPaths, depth + 1));
    }
    return this.walkObject(value as Record<string, unknown>, paths, depth);
  }

  private maskAt(value: unknown, paths: readonly MarkedField[], depth: number): unknown {
    const here = paths.find((p) => p.path.length === depth);
    if (here) return value === undefined || value === null ? value : this.sealed(value, here.piClass);
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      value.forEach((v, i) => {
        const child = paths.filter((p) => p.path[depth] === '*' || p.path[depth] === String(i));
        if (!child.length) return;
        const masked = this.maskAt(v, child, depth + 1);
        if (masked !== v) (out ??= [...value])[i] = masked;
      });
      return out ?? value;
    }
    const record = value as Record<string, unknown>;
    let out: Record<string, unknown> | undefined;
    for (const key of Object.keys(record)) {
      const child = paths.filter((p) => p.path[depth] === key || p.path[depth] === '*');
      if (!child.length) continue;
      const masked = this.maskAt(record[key], child, depth + 1);
      if (masked !== record[key]) setOwn((out ??= { ...record }), key, masked);
    }
    return out ?? value;
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
    paths: readonly MarkedField[],
    depth: number,
  ): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const keys = new UniqueKeys(out);
    for (const key of Object.keys(value)) {
      setOwn(out, keys.claim(this.redactSpans(key)), this.walkEntry(key, value[key], paths, depth));
    }
    return out;
  }

  private walkEntry(key: string, value: unknown, paths: readonly MarkedField[], depth: number): unknown {
    if (SECRET_KEY.test(key)) {
      return value === null || value === undefined || value === '' ? value : this.sealed(value);
    }
    const childPaths = paths.length
      ? paths.filter((p) => p.path[depth] === key || p.path[depth] === '*')
      : paths;
    return this.walk(value, childPaths, depth + 1);
  }
}

/**
 * A `personal` field's partial mask (GB/T 35273 display masking): a value that is one recognised
 * number or address is masked as such (`138****5678`); other text keeps its first character
 * (`张三` → `张*`, at most three `*`, so the length is not told); anything else is sealed.
 */
export function partialMask(value: unknown): unknown {
  if (value === null || value === undefined || value === '') return value;
  const text = typeof value === 'string' ? value : Number.isSafeInteger(value) ? String(value) : undefined;
  if (text === undefined) return REDACTED;
  const spans = findSpans(text, ALL_PATTERNS);
  if (spans.length === 1 && spans.starts[0] === 0 && spans.ends[0] === text.length)
    return maskSpan(spans.patterns[0]!, text, 0, text.length);
  const first = String.fromCodePoint(text.codePointAt(0)!);
  const rest = [...text].length - 1;
  return first + '*'.repeat(Math.min(Math.max(rest, 1), 3));
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
