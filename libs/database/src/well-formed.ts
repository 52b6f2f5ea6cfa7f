import type { ValueTransformer } from 'typeorm';

/**
 * Strings from outside (an upstream's answer, a model's tool call, a connector's body) may hold a
 * lone UTF-16 surrogate: `JSON.parse('"\\ud800"')` yields one. `JSON.stringify` then writes it as
 * the escape `\ud800`, which MariaDB's JSON columns refuse (JSON_VALID fails), and UTF-8 text
 * columns would store U+FFFD instead of what was hashed. So every JSON value the store writes is
 * made well-formed first: a lone surrogate becomes U+FFFD, as `String.prototype.toWellFormed` does.
 */

/** ES2024's well-formedness methods, on Node 20 and 24 alike; the project's `lib` is ES2023. */
interface Utf16Methods {
  isWellFormed(): boolean;
  toWellFormed(): string;
}
const isWellFormed = (s: string): boolean => (s as unknown as Utf16Methods).isWellFormed();
const toWellFormed = (s: string): string => (s as unknown as Utf16Methods).toWellFormed();

const isPlainObject = (v: object): v is Record<string, unknown> => {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

/** Whether any string or key inside `value` holds a lone surrogate (iterative: no stack to exhaust). */
function needsRepair(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (!isWellFormed(v)) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (v !== null && typeof v === 'object' && isPlainObject(v)) {
      for (const key in v) {
        if (!isWellFormed(key)) return true;
        stack.push(v[key]);
      }
    }
  }
  return false;
}

function repaired(v: unknown): unknown {
  if (typeof v === 'string') return toWellFormed(v);
  if (Array.isArray(v)) return v.map(repaired);
  if (v === null || typeof v !== 'object' || !isPlainObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const key in v) out[toWellFormed(key)] = repaired(v[key]);
  return out;
}

/**
 * `value` with every string and object key well-formed. A clean value (nearly all) comes back as
 * the same reference after one walk that allocates nothing; class instances (a Date, a Buffer)
 * are kept as they are, since they write their own JSON.
 * @example wellFormed({ x: 'a\ud800' }) // { x: 'a\ufffd' }
 */
export function wellFormed<T>(value: T): T {
  return needsRepair(value) ? (repaired(value) as T) : value;
}

/**
 * The JSON text a raw statement writes into a JSON column; null and undefined as SQL NULL. A text
 * without `\ud` cannot hold a lone surrogate's escape, so a clean value pays one native substring
 * scan over the text it needed anyway (a literal backslash before `ud` costs a walk, no change).
 */
export function jsonText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = JSON.stringify(value);
  return text.includes('\\ud') ? JSON.stringify(wellFormed(value)) : text;
}

/** The transformer every `jsonColumn` applies first: entities write well-formed JSON. */
export const wellFormedJson: ValueTransformer = {
  to: (v: unknown) => wellFormed(v),
  from: (v: unknown) => v,
};
