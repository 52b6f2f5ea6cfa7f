/** A JSON text's structure that the gateway refuses, and where it is. */
export interface JsonKeyProblem {
  /**
   * `duplicate`: the object already has this key; `prototype`: `__proto__` or
   * `constructor.prototype`; `depth`: objects and arrays nested deeper than allowed.
   */
  readonly kind: 'duplicate' | 'prototype' | 'depth';
  /** The key as JSON.parse reads it (escapes decoded); for `depth`, the key or index nested too deep. */
  readonly key: string | number;
  /** Where the problem is: object keys and array indexes, `key` last. */
  readonly path: readonly (string | number)[];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** Objects with more keys than this look keys up in a Set; smaller ones in their key list. */
const LIST_LIMIT = 12;

/** One open object or array. */
class Frame {
  /** The keys seen so far (small objects never build a Set). */
  readonly list: string[] = [];
  set: Set<string> | undefined = undefined;
  isObject = true;
  /** The next string token is a key (right after `{` or a `,` of this object). */
  expectKey = true;
  /** The current key (objects) or index (arrays): a step of the path. */
  step: string | number = 0;
  /** This object is the value of a `constructor` key. */
  underConstructor = false;

  reset(isObject: boolean, underConstructor: boolean): void {
    this.isObject = isObject;
    this.expectKey = isObject;
    this.step = 0;
    this.underConstructor = underConstructor;
    if (this.list.length > 0) this.list.length = 0;
    this.set = undefined;
  }

  /** Records a key; false when the object already has it. */
  add(key: string): boolean {
    if (this.set !== undefined) {
      if (this.set.has(key)) return false;
      this.set.add(key);
      return true;
    }
    if (this.list.includes(key)) return false;
    this.list.push(key);
    if (this.list.length > LIST_LIMIT) this.set = new Set(this.list);
    return true;
  }
}

// Frames are reused by depth across calls (the scan is synchronous, so calls never interleave);
// the depth limit bounds the pool. The hot path allocates nothing but the keys it compares.
const pool: Frame[] = [];
/** How many frames the current scan has opened (its deepest point), for the release after it. */
let opened = 0;

/** The index of the quote that closes the string whose content starts at `from`; -1 if none. */
function closingQuote(text: string, from: number): number {
  let q = text.indexOf('"', from);
  while (q !== -1) {
    // A quote preceded by an odd run of backslashes is escaped. Each run lies between two quotes,
    // so counting runs stays linear over the whole text.
    let b = q - 1;
    while (text.charCodeAt(b) === BACKSLASH) b--;
    if ((q - 1 - b) % 2 === 0) return q;
    q = text.indexOf('"', q + 1);
  }
  return -1;
}

/** The key of a string token as JSON.parse reads it; only keys with escapes pay for a parse. */
function keyOf(text: string, open: number, close: number): string {
  const raw = text.slice(open + 1, close);
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(text.slice(open, close + 1)) as string;
  } catch {
    return raw; // not JSON after all: JSON.parse refuses the whole text anyway
  }
}

function problemAt(kind: JsonKeyProblem['kind'], depth: number, key: string | number): JsonKeyProblem {
  const path: (string | number)[] = [];
  for (let d = 0; d < depth - 1; d++) path.push(pool[d]!.step);
  path.push(key);
  return { kind, key, path };
}

/** Records `key` in the innermost object; the problem it makes, if any. */
function addKey(depth: number, key: string): JsonKeyProblem | undefined {
  const frame = pool[depth - 1]!;
  frame.expectKey = false;
  frame.step = key;
  if (key === '__proto__' || (key === 'prototype' && frame.underConstructor)) {
    return problemAt('prototype', depth, key);
  }
  return frame.add(key) ? undefined : problemAt('duplicate', depth, key);
}

/** Opens an object or array at `depth`. */
function open(depth: number, isObject: boolean): void {
  const parent = depth > 0 ? pool[depth - 1] : undefined;
  const frame = pool[depth] ?? (pool[depth] = new Frame());
  if (depth >= opened) opened = depth + 1;
  frame.reset(isObject, isObject && parent !== undefined && parent.isObject && parent.step === 'constructor');
}

/**
 * Finds the first structure of a JSON text that the gateway refuses: a key that appears twice in
 * one object (JSON.parse keeps the last, other parsers the first — what a reviewer reads is not
 * what runs), `__proto__` or `prototype` inside a `constructor` object, or nesting deeper than
 * `maxDepth`. Equal keys in different objects are fine.
 *
 * One linear pass: strings are skipped with `indexOf`, each open object keeps its keys (a list,
 * a Set once it is large). Exact on valid JSON; on other text it may report anything, but it never
 * throws or loops, so it can run before JSON.parse and refuse a hostile body before it is built.
 *
 * @example findJsonKeyProblem('{"a":1,"\\u0061":2}', 64) // { kind: 'duplicate', key: 'a', path: ['a'] }
 */
export function findJsonKeyProblem(text: string, maxDepth: number): JsonKeyProblem | undefined {
  try {
    return scan(text, maxDepth);
  } finally {
    // A large object's Set would otherwise stay reachable from the pool until the next big body.
    for (let d = 0; d < opened; d++) pool[d]!.set = undefined;
    opened = 0;
  }
}

function scan(text: string, maxDepth: number): JsonKeyProblem | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const close = closingQuote(text, i + 1);
      if (close === -1) return undefined;
      if (depth > 0 && pool[depth - 1]!.expectKey) {
        const problem = addKey(depth, keyOf(text, i, close));
        if (problem) return problem;
      }
      i = close;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth === maxDepth) return problemAt('depth', depth, depth > 0 ? pool[depth - 1]!.step : 0);
      open(depth++, c === OPEN_OBJECT);
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth > 0) depth--;
    } else if (c === COMMA && depth > 0) {
      const frame = pool[depth - 1]!;
      if (frame.isObject) frame.expectKey = true;
      else frame.step = (frame.step as number) + 1;
    }
  }
  return undefined;
}
