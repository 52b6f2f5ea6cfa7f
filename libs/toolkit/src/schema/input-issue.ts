/** A path into a value: object keys and array indexes. */
export type IssuePath = readonly (string | number)[];

/** One problem with an input or output, independent of the language it is shown in. */
export type InputIssue =
  | { readonly kind: 'type'; readonly path: IssuePath; readonly expected: string; readonly received: string }
  | { readonly kind: 'missing'; readonly path: IssuePath; readonly expected: string }
  | { readonly kind: 'unknown_field'; readonly path: IssuePath; readonly allowed: readonly string[] }
  | { readonly kind: 'value'; readonly path: IssuePath; readonly allowed: readonly unknown[] }
  | {
      readonly kind: 'bound';
      readonly path: IssuePath;
      readonly direction: 'min' | 'max';
      readonly subject: 'length' | 'number' | 'items' | 'other';
      readonly limit: number | string;
      readonly inclusive: boolean;
    }
  | { readonly kind: 'format'; readonly path: IssuePath; readonly format: string }
  | { readonly kind: 'other'; readonly path: IssuePath; readonly message: string };

/** The JSON type name of a value, as the readable messages name it. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return 'Infinity';
    return 'number';
  }
  return typeof value;
}

/** Reads the value at a path, or undefined when the path leaves the value. */
export function valueAtPath(root: unknown, path: IssuePath): unknown {
  let current: unknown = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, key)) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/**
 * Formats a path the way agents read it: `items[2].sku`.
 * @example formatPath(['items', 2, 'sku']) // "items[2].sku"
 */
export function formatPath(path: IssuePath): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${key}` : key;
  }
  return out;
}
