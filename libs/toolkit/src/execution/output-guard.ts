import { FILE_PART_WARN_BYTES, MAX_OUTPUT_DEPTH } from '../constants.js';

/** What the output guard found wrong, with the path to it. */
export interface OutputProblem {
  readonly path: (string | number)[];
  readonly reason: string;
}

export type OutputCheck =
  { ok: true; value: unknown; largeStrings: number } | { ok: false; problem: OutputProblem };

function describeUnserializable(v: unknown): string | undefined {
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v) ? undefined : `${String(v)} is not JSON`;
    case 'bigint':
      return 'BigInt is not JSON; return it as a string';
    case 'function':
      return 'a function is not JSON';
    case 'symbol':
      return 'a symbol is not JSON';
    default:
      break;
  }
  if (v instanceof Map) return 'a Map is not JSON; return a plain object';
  if (v instanceof Set) return 'a Set is not JSON; return an array';
  if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer)
    return 'binary data is not JSON; return files as base64 strings';
  return undefined;
}

/**
 * Makes a tool's output safe to persist and send: Dates become ISO strings; Map, Set, NaN,
 * Infinity, BigInt, functions, binary buffers, cycles and nesting deeper than MAX_OUTPUT_DEPTH are
 * refused with the path to them.
 * Counts strings above the 3 MiB file-part warning threshold.
 */
export function guardOutput(value: unknown): OutputCheck {
  const ancestors = new Set<object>();
  let largeStrings = 0;

  // One shared path stack: pushed and popped while walking, copied only when a problem is found.
  const path: (string | number)[] = [];
  const fail = (reason: string): never => {
    throw { path: [...path], reason } satisfies OutputProblem;
  };
  const visit = (v: unknown): unknown => {
    if (v === null || typeof v === 'boolean' || typeof v === 'string') {
      if (typeof v === 'string' && v.length > FILE_PART_WARN_BYTES) largeStrings++;
      return v;
    }
    if (v === undefined) return undefined;
    const bad = describeUnserializable(v);
    if (bad) fail(bad);
    if (typeof v !== 'object') return v;
    if (v instanceof Date) {
      if (Number.isNaN(v.getTime())) fail('an invalid Date is not JSON');
      return v.toISOString();
    }
    if (ancestors.has(v)) fail('a circular reference is not JSON');
    if (path.length >= MAX_OUTPUT_DEPTH) fail(`nested deeper than ${MAX_OUTPUT_DEPTH} levels`);
    ancestors.add(v);
    // Copy on write: a value that is JSON already comes back as itself, without an allocation.
    let out: unknown = v;
    if (Array.isArray(v)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        let r = visit(v[i]);
        path.pop();
        if (r === undefined) r = null;
        if (r !== v[i] && !copy) copy = v.slice(0, i);
        if (copy) copy.push(r);
      }
      if (copy) out = copy;
    } else {
      const keys = Object.keys(v);
      let copy: Record<string, unknown> | undefined;
      for (let k = 0; k < keys.length; k++) {
        const key = keys[k]!;
        const before = (v as Record<string, unknown>)[key];
        path.push(key);
        const r = visit(before);
        path.pop();
        if (r !== before && !copy) {
          copy = {};
          for (let j = 0; j < k; j++) copy[keys[j]!] = (v as Record<string, unknown>)[keys[j]!];
        }
        if (copy && r !== undefined) copy[key] = r;
      }
      if (copy) out = copy;
      else if (Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null)
        out = { ...v };
    }
    ancestors.delete(v);
    return out;
  };

  try {
    const result = visit(value);
    return { ok: true, value: result === undefined ? null : result, largeStrings };
  } catch (err) {
    if (err && typeof err === 'object' && 'reason' in err)
      return { ok: false, problem: err as OutputProblem };
    throw err;
  }
}
