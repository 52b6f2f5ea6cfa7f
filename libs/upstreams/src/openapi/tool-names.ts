/** The gateway's tool-name format (snake_case, single underscores) and length limit. */
export const TOOL_NAME_FORMAT = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
export const MAX_TOOL_NAME_LENGTH = 64;

/**
 * The most characters of an upstream's name the conversion reads: names are cut to
 * MAX_TOOL_NAME_LENGTH anyway, and the acronym split below backtracks over a run of capitals, so
 * an upstream that sends a megabyte of them must not cost quadratic time.
 */
const MAX_SOURCE_LENGTH = 4 * MAX_TOOL_NAME_LENGTH;

/**
 * An identifier in the tool-name format: camelCase and PascalCase split into words, anything else
 * a separator, a name that does not start with a letter prefixed (`op_`, or `prefix`), at most
 * `maxLength` characters.
 * @example snakeName('getCustomerByID') // 'get_customer_by_id'
 * @example snakeName('DELETE /orders/{id}') // 'delete_orders_id'
 */
export function snakeName(text: string, maxLength = MAX_TOOL_NAME_LENGTH, prefix = 'op_'): string {
  let name = text
    .slice(0, MAX_SOURCE_LENGTH)
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!name) name = 'operation';
  if (!/^[a-z]/.test(name)) name = `${prefix}${name}`;
  return name.slice(0, maxLength).replace(/_+$/, '');
}

/** Hands out names unique within one document, suffixing `_2`, `_3`... to repeats. */
export class UniqueNames {
  private readonly taken = new Set<string>();

  /** `base` itself when free, else the first free `base_n` (base shortened to stay within the limit). */
  claim(base: string): string {
    let name = base;
    for (let n = 2; this.taken.has(name); n++) {
      const suffix = `_${n}`;
      name = `${base.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length).replace(/_+$/, '')}${suffix}`;
    }
    this.taken.add(name);
    return name;
  }
}
