import { MAX_EXPANDED_NODES, MAX_NESTING_DEPTH } from './openapi-limits.js';
import { OpenApiSourceError } from './openapi-source-error.js';

/**
 * Refuses a document whose internal `$ref`s would expand past MAX_EXPANDED_NODES once
 * dereferenced, before the parser sees it. The parser dereferences synchronously and its work
 * grows with the expanded size: 30 schemas each referencing the previous one twice (a 3 KB
 * document) held the event loop for minutes, past the parser's own time limit. Linear in the
 * document's size: each reference's expanded size is computed once; a cycle counts as one node
 * (the parser leaves cycles as `$ref`s).
 */
export function assertBoundedExpansion(document: Record<string, unknown>): void {
  const sizes = new Map<string, number>();
  const inProgress = new Set<string>();

  const sizeOf = (node: unknown, depth: number): number => {
    if (node === null || typeof node !== 'object') return 1;
    if (depth > MAX_NESTING_DEPTH) {
      throw new OpenApiSourceError(
        'invalid',
        `The document is nested deeper than ${MAX_NESTING_DEPTH} levels`,
      );
    }
    const ref = (node as Record<string, unknown>).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/')) return 1 + refSize(ref, depth);
    let total = 1;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      total = Math.min(total + sizeOf(child, depth + 1), MAX_EXPANDED_NODES + 1);
    }
    return total;
  };

  const refSize = (ref: string, depth: number): number => {
    const known = sizes.get(ref);
    if (known !== undefined) return known;
    if (inProgress.has(ref)) return 1;
    inProgress.add(ref);
    const size = sizeOf(resolvePointer(document, ref), depth + 1);
    inProgress.delete(ref);
    sizes.set(ref, size);
    return size;
  };

  if (sizeOf(document, 0) > MAX_EXPANDED_NODES) {
    throw new OpenApiSourceError(
      'too_large',
      `The document's references expand to more than ${MAX_EXPANDED_NODES} nodes once resolved`,
    );
  }
}

/** The value a local JSON pointer (`#/components/schemas/Pet`) names, or undefined. */
export function resolvePointer(document: Record<string, unknown>, ref: string): unknown {
  let current: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
