const PLACEHOLDER = /\$\{([A-Z_][A-Z0-9_]*)(?::-([^}]*))?\}/g;

/** Where `${NAME}` placeholders in tenant files find their values. */
export type VariableLookup = (name: string) => string | undefined;

/** Raised when a placeholder has no value and no default. */
export class MissingVariableError extends Error {
  constructor(readonly variable: string) {
    super(`\${${variable}} is not set (and has no :-default)`);
  }
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
