/**
 * `${NAME}` or `${NAME:-default}`. A default holds neither `}` nor `$`: every class stops where the
 * next placeholder could start, so matching stays linear on hostile text (`${A:-${A:-${A:-…`).
 */
export const PLACEHOLDER = /\$\{([A-Z_][A-Z0-9_]*)(?::-([^$}]*))?\}/g;

/** Where `${NAME}` placeholders in tenant files find their values. */
export type VariableLookup = (name: string) => string | undefined;

/** Raised when a placeholder has no value and no default. */
export class MissingVariableError extends Error {
  constructor(readonly variable: string) {
    super(`\${${variable}} is not set (and has no :-default)`);
  }
}

/** Raised when a placeholder names a variable the tenant may not read. */
export class ForbiddenVariableError extends Error {
  constructor(
    readonly variable: string,
    readonly allowed: string,
  ) {
    super(`\${${variable}} is not a variable of this tenant: use ${allowed}<NAME> or a platform variable`);
  }
}

/** Every `${NAME}` a value mentions, in order of appearance. */
export function placeholdersIn(value: unknown): string[] {
  if (typeof value === 'string') return [...value.matchAll(PLACEHOLDER)].map((m) => m[1]!);
  if (Array.isArray(value)) return value.flatMap(placeholdersIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(placeholdersIn);
  return [];
}

/**
 * Replaces `${NAME}` and `${NAME:-default}` in every string of a value. Secrets stay in the
 * environment: files and the database keep the placeholders, clients get the values.
 */
export function expandVariables<T>(value: T, lookup: VariableLookup): T {
  if (typeof value === 'string') {
    return value.replace(PLACEHOLDER, (_m, name: string, fallback: string | undefined) => {
      const found = lookup(name);
      if (found !== undefined) return found;
      if (fallback !== undefined) return fallback;
      throw new MissingVariableError(name);
    }) as T;
  }
  if (Array.isArray(value)) return value.map((v) => expandVariables(v, lookup)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandVariables(v, lookup)])) as T;
  }
  return value;
}
