import { findSpans, maskSpan, REDACTED, type ValuePattern } from '@toolgate/audit';
import type { GuardrailCheck } from '@toolgate/contract/rules';
import { INJECTION_PATTERNS } from './injection-patterns.js';
import { SECRET_PATTERNS } from './secret-patterns.js';

/** What an instruction-like span becomes when masked. */
export const FILTERED = '[FILTERED: instruction-like text]';

/** Values one scan visits at most (strings, keys and all): past it the rest is not looked at, and said so. */
const MAX_NODES = 100_000;
/** Depth one scan walks (inputs are bounded by MAX_INPUT_DEPTH already; results by the output guard). */
const MAX_DEPTH = 64;

/** What one scan found (kinds, never values) and, for `mask`, the value with what it found replaced. */
export interface ScanResult {
  readonly found: readonly string[];
  readonly value: unknown;
  /** The scan stopped at its bounds: part of the value was not looked at. */
  readonly truncated: boolean;
}

interface Span {
  readonly start: number;
  readonly end: number;
  readonly replacement: string;
}

/**
 * Scans a JSON value's strings (object keys too) for what `check` looks for: personal data by the
 * audit redactor's scanners (linear), secrets and instruction-like text by the fixed patterns of
 * ADR 045 (linear). With `mask`, returns a copy with each span replaced — personal data as the
 * redactor masks it (`138****5678`), secrets as `[REDACTED]`, instructions as `[FILTERED: …]`; what
 * holds nothing is shared, not copied.
 */
export function scanContent(value: unknown, check: GuardrailCheck, mask: boolean): ScanResult {
  const pii = new Set<ValuePattern>(check.pii ?? []);
  const found = new Set<string>();
  let nodes = 0;
  let truncated = false;

  const text = (s: string): string => {
    const spans: Span[] = [];
    if (pii.size) {
      const hits = findSpans(s, pii);
      for (let i = 0; i < hits.length; i++) {
        found.add(`pii:${hits.patterns[i]}`);
        spans.push({
          start: hits.starts[i]!,
          end: hits.ends[i]!,
          replacement: maskSpan(hits.patterns[i]!, s, hits.starts[i]!, hits.ends[i]!),
        });
      }
    }
    if (check.secrets) collect(s, SECRET_PATTERNS, 'secret', REDACTED, spans, found);
    if (check.injection) collect(s, INJECTION_PATTERNS, 'injection', FILTERED, spans, found);
    return mask && spans.length ? replaceSpans(s, spans) : s;
  };

  const walk = (v: unknown, depth: number): unknown => {
    if (++nodes > MAX_NODES || depth > MAX_DEPTH) {
      truncated = true;
      return v;
    }
    if (typeof v === 'string') return text(v);
    if (typeof v === 'number' && Number.isSafeInteger(v) && pii.size) {
      // A phone or card sent as a JSON number is digits like any other.
      const s = String(v);
      const masked = text(s);
      return masked === s ? v : masked;
    }
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      let out: unknown[] | undefined;
      v.forEach((item, i) => {
        const next = walk(item, depth + 1);
        if (next !== item) (out ??= [...v])[i] = next;
      });
      return out ?? v;
    }
    const record = v as Record<string, unknown>;
    let changed = false;
    const entries = Object.keys(record).map((k) => {
      const key = text(k);
      const item = walk(record[k], depth + 1);
      if (key !== k || item !== record[k]) changed = true;
      return [key, item] as const;
    });
    if (!changed) return v;
    const out: Record<string, unknown> = {};
    for (const [k, item] of entries)
      Object.defineProperty(out, k, { value: item, enumerable: true, writable: true, configurable: true });
    return out;
  };

  const scanned = walk(value, 0);
  return { found: [...found].sort(), value: mask ? scanned : value, truncated };
}

function collect(
  s: string,
  patterns: readonly { readonly kind: string; readonly pattern: RegExp }[],
  family: string,
  replacement: string,
  spans: Span[],
  found: Set<string>,
): void {
  for (const { kind, pattern } of patterns) {
    // Global patterns keep their position: start every string at 0.
    pattern.lastIndex = 0;
    for (let m = pattern.exec(s); m; m = pattern.exec(s)) {
      found.add(`${family}:${kind}`);
      spans.push({ start: m.index, end: m.index + m[0].length, replacement });
      if (m[0].length === 0) pattern.lastIndex++;
    }
  }
}

/** `s` with the spans replaced; a span overlapping an earlier (or longer at the same start) one is dropped. */
function replaceSpans(s: string, spans: Span[]): string {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  for (const span of spans) {
    if (span.start < at) continue;
    out += s.slice(at, span.start) + span.replacement;
    at = span.end;
  }
  return out + s.slice(at);
}
