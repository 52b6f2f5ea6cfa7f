import fc from 'fast-check';

type Schema = Record<string, any>;

const MAX_DEPTH = 6;

/** Any JSON value: what a careless or hostile client may send. */
export const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 3 }).map((v) => v as unknown);

function resolveRef(ref: string, root: Schema): Schema {
  const path = ref
    .replace(/^#\//, '')
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  return path.reduce<Schema>((node, key) => node?.[key], root) ?? {};
}

/**
 * Values a JSON Schema accepts, generated from the schema itself: the "valid input" half of the
 * property test that holds every tool's exported schema against its Zod schema.
 */
export function valuesOf(schema: Schema, root: Schema = schema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.$ref) return valuesOf(resolveRef(schema.$ref, root), root, depth + 1);
  if (depth > MAX_DEPTH) return fc.constant(null);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  if (Array.isArray(schema.anyOf))
    return fc.oneof(...schema.anyOf.map((s: Schema) => valuesOf(s, root, depth + 1)));
  if (Array.isArray(schema.oneOf))
    return fc.oneof(...schema.oneOf.map((s: Schema) => valuesOf(s, root, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (type.length > 1)
    return fc.oneof(...type.map((t: string) => valuesOf({ ...schema, type: t }, root, depth)));
  switch (type[0]) {
    case 'string': {
      if (schema.pattern)
        return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => lengthOk(s, schema));
      return fc
        .string({
          minLength: schema.minLength ?? 0,
          maxLength: Math.min(schema.maxLength ?? 24, 64),
          unit: 'grapheme',
        })
        .filter((s) => lengthOk(s, schema));
    }
    case 'integer':
      return fc.integer({ min: bound(schema, 'min', -1e6), max: bound(schema, 'max', 1e6) });
    case 'number':
      return fc.double({
        min: bound(schema, 'min', -1e6),
        max: bound(schema, 'max', 1e6),
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items =
        schema.items && typeof schema.items === 'object' ? valuesOf(schema.items, root, depth + 1) : anyJson;
      return fc.array(items, {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 6),
      });
    }
    case 'object':
    default: {
      const props: Record<string, Schema> = schema.properties ?? {};
      const required = new Set<string>(schema.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, s] of Object.entries(props)) record[k] = valuesOf(s, root, depth + 1);
      return fc.record(record, { requiredKeys: [...required].filter((k) => k in props) });
    }
  }
}

function lengthOk(s: string, schema: Schema): boolean {
  const n = [...s].length;
  return n >= (schema.minLength ?? 0) && n <= (schema.maxLength ?? Infinity);
}

function bound(schema: Schema, side: 'min' | 'max', fallback: number): number {
  const inclusive = side === 'min' ? schema.minimum : schema.maximum;
  const exclusive = side === 'min' ? schema.exclusiveMinimum : schema.exclusiveMaximum;
  if (typeof inclusive === 'number') return inclusive;
  if (typeof exclusive === 'number') return side === 'min' ? exclusive + 1e-9 : exclusive - 1e-9;
  return fallback;
}

/** A valid value with one thing broken: a field replaced by any JSON, a required field dropped, or a field added. */
export function mutationsOf(schema: Schema): fc.Arbitrary<unknown> {
  return fc
    .tuple(valuesOf(schema), fc.nat(), anyJson, fc.constantFrom('replace', 'drop', 'add', 'whole'))
    .map(([value, pick, junk, how]) => {
      if (how === 'whole' || !value || typeof value !== 'object' || Array.isArray(value)) return junk;
      const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      const keys = Object.keys(schema.properties ?? {});
      const key = keys.length ? keys[pick % keys.length]! : 'x';
      if (how === 'replace') copy[key] = junk;
      else if (how === 'drop') delete copy[key];
      else copy[`extra_${pick % 5}`] = junk;
      return copy;
    });
}
