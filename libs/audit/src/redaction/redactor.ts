import { createHmac } from 'node:crypto';
import { findSensitiveValues, maskValue, VALUE_PATTERNS, type ValuePattern } from './value-patterns.js';

/** How a tenant wants sensitive values stored. */
export interface RedactionPolicy {
  /** `mask` keeps a recognisable shape; `fingerprint` keeps a keyed hash so equal values can be matched. */
  readonly mode: 'mask' | 'fingerprint';
  readonly patterns: readonly ValuePattern[];
}

export const DEFAULT_REDACTION_POLICY: RedactionPolicy = { mode: 'mask', patterns: [...VALUE_PATTERNS] };

/** Keys whose values are secrets whatever they look like. */
const SECRET_KEY =
  /pass(?:word|wd|phrase)?|secret|token|api[-_]?key|authori[sz]ation|cookie|credential|private[-_]?key|session[-_]?key/i;

export const REDACTED = '[REDACTED]';

/**
 * Redacts a value before anything is stored: fields marked sensitive in the schema, secret-looking
 * keys, and values matching the tenant's patterns (resident ID, mobile, bank card, e-mail).
 * Never mutates its input.
 */
export class Redactor {
  private readonly patterns: ReadonlySet<ValuePattern>;

  constructor(
    private readonly policy: RedactionPolicy,
    /** The tenant's fingerprint key (HMAC-SHA-256). */
    private readonly fingerprintKey: Buffer,
  ) {
    this.patterns = new Set(policy.patterns);
  }

  /** The redacted copy of a value; `sensitivePaths` use `*` for array elements and record values. */
  redact(value: unknown, sensitivePaths: readonly (readonly string[])[] = []): unknown {
    return this.walk(value, sensitivePaths, 0);
  }

  /** Redacts the values inside one string. */
  redactText(text: string): string {
    const matches = findSensitiveValues(text, this.patterns);
    if (!matches.length) return text;
    let out = '';
    let at = 0;
    for (const m of matches) {
      if (m.start < at) continue;
      out += text.slice(at, m.start) + this.replacement(m.pattern, m.value);
      at = m.end;
    }
    return out + text.slice(at);
  }

  private replacement(pattern: ValuePattern, value: string): string {
    if (this.policy.mode === 'mask') return maskValue(pattern, value);
    return `fp:${pattern}:${this.fingerprint(value.replace(/[ -]/g, ''))}`;
  }

  /** The whole-value replacement for sensitive fields and secret keys. */
  private sealed(value: unknown): string {
    if (this.policy.mode === 'fingerprint' && (typeof value === 'string' || typeof value === 'number')) {
      return `fp:${this.fingerprint(String(value))}`;
    }
    return REDACTED;
  }

  private fingerprint(value: string): string {
    return createHmac('sha256', this.fingerprintKey).update(value).digest('hex').slice(0, 24);
  }

  private walk(value: unknown, paths: readonly (readonly string[])[], depth: number): unknown {
    if (paths.some((p) => p.length === depth)) return this.sealed(value);
    if (typeof value === 'string') return this.redactText(value);
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      const childPaths = paths.filter((p) => p[depth] === '*');
      return value.map((v) => this.walk(v, childPaths, depth + 1));
    }
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if (SECRET_KEY.test(key)) {
        out[key] = v === null || v === undefined || v === '' ? v : this.sealed(v);
        continue;
      }
      const childPaths = paths.filter((p) => p[depth] === key || p[depth] === '*');
      out[key] = this.walk(v, childPaths, depth + 1);
    }
    return out;
  }
}
