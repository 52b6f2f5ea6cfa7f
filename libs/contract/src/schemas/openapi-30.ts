type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node =>
  Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/**
 * The JSON type every value of `schema` has, following `$ref`s into `components` and looking
 * through unions whose members agree; undefined when it cannot be told.
 */
function typeOf(
  schema: unknown,
  components: Record<string, Node>,
  seen = new Set<string>(),
): string | undefined {
  if (!isNode(schema)) return undefined;
  if (typeof schema.type === 'string') return schema.type;
  if (typeof schema.$ref === 'string') {
    const id = schema.$ref.slice(schema.$ref.lastIndexOf('/') + 1);
    if (seen.has(id)) return undefined;
    return typeOf(components[id], components, new Set(seen).add(id));
  }
  const members = (schema.allOf ?? schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (!Array.isArray(members) || members.length === 0) return undefined;
  const types = new Set(members.map((m) => typeOf(m, components, seen)));
  return types.size === 1 ? [...types][0] : undefined;
}

/**
 * What Zod's `openapi-3.0` target writes that OpenAPI 3.0 (or its linters) refuse, rewritten to
 * what it means:
 * - `nullable` needs a `type` beside it (3.0.3): a nullable `$ref` (`{nullable, allOf: [$ref]}`)
 *   gets the type of what it refers to; a nullable "anything" drops `nullable` (any value already
 *   includes null).
 * - `{allOf: [X]}` with nothing beside it is X.
 * - A record with enum keys (`z.record(z.enum(...), V)`) has every key: Zod lists them in
 *   `required` but writes no `properties`, so each required key gets the record's value schema.
 */
function rewrite(node: unknown, components: Record<string, Node>): unknown {
  if (Array.isArray(node)) return node.map((n) => rewrite(n, components));
  if (!isNode(node)) return node;
  const out: Node = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, rewrite(v, components)]));
  if (Array.isArray(out.allOf) && out.allOf.length === 1 && Object.keys(out).length === 1)
    return out.allOf[0];
  if (out.nullable === true && out.type === undefined) {
    const type = typeOf(out, components);
    if (type) out.type = type;
    else delete out.nullable;
  }
  if (Array.isArray(out.required) && isNode(out.additionalProperties)) {
    const properties = { ...(out.properties as Node | undefined) };
    for (const key of out.required as string[]) properties[key] ??= out.additionalProperties;
    out.properties = properties;
  }
  return out;
}

/** `components.schemas` as valid OpenAPI 3.0 that linters (Redocly, Spectral) accept. */
export function asOpenApi30(components: Record<string, Node>): Record<string, Node> {
  return Object.fromEntries(
    Object.entries(components).map(([id, schema]) => [id, rewrite(schema, components) as Node]),
  );
}
