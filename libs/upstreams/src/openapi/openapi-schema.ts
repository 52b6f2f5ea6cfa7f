import { resolvePointer } from './expansion-guard.js';
import { MAX_DOCUMENT_SCHEMA_NODES, MAX_SCHEMA_NODES } from './openapi-limits.js';

/** A schema deeper than this is refused (a stack overflow is not an error message). */
const MAX_SCHEMA_DEPTH = 64;

/** Keywords whose values are data, not schemas: never searched for `$ref`s. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'example']);

/** Keywords whose values map names (of properties, definitions) to schemas: the names are data. */
const SCHEMA_MAP_KEYWORDS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);

/** OpenAPI 3.0 keywords with no JSON Schema meaning, dropped from the tool's schema. */
const OPENAPI_ONLY_KEYWORDS = new Set(['nullable', 'discriminator', 'xml', 'externalDocs', 'example']);

/** A schema that cannot be turned into a tool schema (too large once expanded, too deep). */
export class SchemaTooComplexError extends Error {}

/**
 * Turns an OpenAPI schema (already dereferenced by the parser) into standalone JSON Schema 2020-12:
 * internal `$ref`s the parser left (cycles) are inlined until they would recur, then read as "any
 * value"; external ones (never fetched) also read as "any value"; OpenAPI 3.0's `nullable` and
 * boolean `exclusiveMinimum`/`exclusiveMaximum` become their JSON Schema forms.
 */
export class SchemaConverter {
  private budget = 0;
  private documentBudget = MAX_DOCUMENT_SCHEMA_NODES;

  constructor(
    private readonly document: Record<string, unknown>,
    private readonly openapi30: boolean,
  ) {}

  /** Converts one schema (within MAX_SCHEMA_NODES, and the document's budget across all calls). */
  convert(schema: unknown): unknown {
    this.budget = MAX_SCHEMA_NODES;
    return this.walk(schema, [], 0);
  }

  private walk(node: unknown, refs: readonly string[], depth: number): unknown {
    if (node === null || typeof node !== 'object') return node;
    if (--this.budget < 0 || depth > MAX_SCHEMA_DEPTH) {
      throw new SchemaTooComplexError(
        `a schema expands to more than ${MAX_SCHEMA_NODES} nodes or is deeper than ${MAX_SCHEMA_DEPTH}`,
      );
    }
    if (--this.documentBudget < 0) {
      throw new SchemaTooComplexError(
        `the schemas expand to more than ${MAX_DOCUMENT_SCHEMA_NODES} nodes in all`,
      );
    }
    if (Array.isArray(node)) return node.map((item) => this.walk(item, refs, depth + 1));
    const source = node as Record<string, unknown>;
    if (typeof source.$ref === 'string') return this.followRef(source, refs, depth);
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(source)) {
      if (key.startsWith('x-') || (this.openapi30 && OPENAPI_ONLY_KEYWORDS.has(key))) continue;
      if (DATA_KEYWORDS.has(key)) out[key] = value;
      else if (SCHEMA_MAP_KEYWORDS.has(key)) out[key] = this.walkMap(value, refs, depth + 1);
      else out[key] = this.walk(value, refs, depth + 1);
    }
    if (this.openapi30) upgradeOpenApi30(source, out);
    return out;
  }

  /** A name → schema map: every name kept as given (a property may be called `x-id` or `example`). */
  private walkMap(node: unknown, refs: readonly string[], depth: number): unknown {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return this.walk(node, refs, depth);
    const entries = Object.entries(node).map(([name, schema]) => [name, this.walk(schema, refs, depth + 1)]);
    return Object.fromEntries(entries);
  }

  private followRef(source: Record<string, unknown>, refs: readonly string[], depth: number): unknown {
    const ref = source.$ref as string;
    const annotations = pick(source, ['description', 'title']);
    if (!ref.startsWith('#/') || refs.includes(ref)) return { ...annotations };
    const target = resolvePointer(this.document, ref);
    if (target === undefined) return { ...annotations };
    const resolved = this.walk(target, [...refs, ref], depth + 1);
    return resolved && typeof resolved === 'object' && !Array.isArray(resolved)
      ? { ...resolved, ...annotations }
      : resolved;
  }
}

function upgradeOpenApi30(source: Record<string, unknown>, out: Record<string, unknown>): void {
  if (source.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof source[flag] !== 'boolean') continue;
    delete out[flag];
    if (source[flag] === true && typeof source[bound] === 'number') {
      out[flag] = source[bound];
      delete out[bound];
    }
  }
  if (source.example !== undefined && out.examples === undefined) out.examples = [source.example];
}

function pick(source: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (typeof source[key] === 'string') out[key] = source[key];
  return out;
}
