import { MAX_INPUT_DEPTH } from '../constants.js';
import type { InputIssue } from '../schema/input-issue.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

interface Found {
  path: (string | number)[];
  message: string;
}

function stringProblem(s: string): string | undefined {
  if (s.includes('\u0000')) return 'NUL characters (\\u0000) are not accepted';
  if (LONE_SURROGATE.test(s)) return 'a lone UTF-16 surrogate is not valid text';
  return undefined;
}

// Recursion is bounded by maxDepth, so the walk cannot overflow on the deep inputs it exists to
// catch; the path is built only on the way back from a problem, so a clean input allocates nothing.
function walk(v: unknown, depth: number, maxDepth: number): Found | undefined {
  if (typeof v === 'string') {
    const message = stringProblem(v);
    return message ? { path: [], message } : undefined;
  }
  if (v === null || typeof v !== 'object') return undefined;
  if (depth >= maxDepth)
    return { path: [], message: `nesting deeper than ${maxDepth} levels is not accepted` };
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const found = walk(v[i], depth + 1, maxDepth);
      if (found) return (found.path.unshift(i), found);
    }
    return undefined;
  }
  for (const key in v) {
    if (!Object.prototype.hasOwnProperty.call(v, key)) continue;
    const keyProblem = stringProblem(key);
    if (keyProblem) return { path: [key], message: `field name: ${keyProblem}` };
    const found = walk((v as Record<string, unknown>)[key], depth + 1, maxDepth);
    if (found) return (found.path.unshift(key), found);
  }
  return undefined;
}

/**
 * Finds what no store can hold faithfully: NUL characters, lone UTF-16 surrogates (MariaDB's JSON
 * columns reject them) and nesting deeper than `maxDepth` (serializing very deep input throws).
 * Runs before validation, so such input is refused before anything runs or is written.
 */
export function findUnstorableInput(value: unknown, maxDepth = MAX_INPUT_DEPTH): InputIssue | undefined {
  const found = walk(value, 0, maxDepth);
  return found ? { kind: 'other', path: found.path, message: found.message } : undefined;
}
