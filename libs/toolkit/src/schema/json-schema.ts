import { toJSONSchema } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';
import type { JsonSchemaObject, ToolSchema } from '../definition/tool-definition.js';
import { schemaKind, zodObjectFieldCount } from './schema-kind.js';

/** Whether a schema describes what a tool accepts or what it returns. */
export type SchemaRole = 'input' | 'output';

/** Raised when a schema cannot become a JSON Schema the platform can stand behind. */
export class SchemaExportError extends Error {}

type Node = Record<string, unknown>;

const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SUBSCHEMA_MAPS = [
  'properties',
  '$defs',
  'definitions',
  'patternProperties',
  'dependentSchemas',
] as const;
const SUBSCHEMA_SINGLE = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
] as const;

/** Visits every subschema of a JSON Schema, the root first. */
function visit(node: unknown, fn: (n: Node) => void): void {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return;
  const n = node as Node;
  fn(n);
  for (const k of SUBSCHEMA_LISTS) if (Array.isArray(n[k])) for (const s of n[k] as unknown[]) visit(s, fn);
  for (const k of SUBSCHEMA_MAPS)
    if (n[k] && typeof n[k] === 'object') for (const s of Object.values(n[k] as Node)) visit(s, fn);
  for (const k of SUBSCHEMA_SINGLE) if (n[k] && typeof n[k] === 'object') visit(n[k], fn);
}

/**
 * Rewrites draft-07 spellings into 2020-12 so one validator handles both (docs/tool-design-rules.md §4.3: "2020-12 rules,
 * draft-07 keywords accepted"): tuple `items` arrays, `additionalItems`, `dependencies`, and the
 * draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` (which zod-to-json-schema still writes).
 */
export function upgradeDraft07(schema: JsonSchemaObject): JsonSchemaObject {
  const copy = structuredClone(schema) as Node;
  visit(copy, (n) => {
    if (Array.isArray(n.items)) {
      n.prefixItems = n.items;
      if (n.additionalItems !== undefined) n.items = n.additionalItems;
      else delete n.items;
      delete n.additionalItems;
    }
    if (n.dependencies && typeof n.dependencies === 'object') {
      for (const [key, dep] of Object.entries(n.dependencies as Node)) {
        if (Array.isArray(dep)) ((n.dependentRequired ??= {}) as Node)[key] = dep;
        else ((n.dependentSchemas ??= {}) as Node)[key] = dep;
      }
      delete n.dependencies;
    }
    for (const [exclusive, bound] of [
      ['exclusiveMinimum', 'minimum'],
      ['exclusiveMaximum', 'maximum'],
    ] as const) {
      if (typeof n[exclusive] !== 'boolean') continue;
      if (n[exclusive] && typeof n[bound] === 'number') {
        n[exclusive] = n[bound];
        delete n[bound];
      } else delete n[exclusive];
    }
  });
  delete copy.$schema;
  return copy;
}

/** Input objects refuse unknown fields, so the exported contract says so too. */
function closeObjects(schema: Node): void {
  visit(schema, (n) => {
    const isObject = n.type === 'object' || (n.properties && typeof n.properties === 'object');
    if (isObject && n.additionalProperties === undefined && n.unevaluatedProperties === undefined) {
      n.additionalProperties = false;
    }
  });
}

function exportZod4(schema: ToolSchema, role: SchemaRole): Node {
  try {
    return toJSONSchema(schema as unknown as Parameters<typeof toJSONSchema>[0], {
      io: role,
      target: 'draft-2020-12',
      unrepresentable: 'throw',
    }) as Node;
  } catch (err) {
    throw new SchemaExportError(`cannot be expressed as JSON Schema (${(err as Error).message})`);
  }
}

/**
 * Says what zod-to-json-schema leaves out and Zod 4's converter says, so that a tool written with
 * a Zod 3-API schema (as upstream libraries still ship them) exports what the same tool written
 * with Zod 4 exports: integers are safe integers unless bounded otherwise, and an output's field
 * with a default is always there (required).
 */
function alignWithZod4(schema: Node, role: SchemaRole): void {
  visit(schema, (n) => {
    if (n.type === 'integer') {
      if (n.minimum === undefined && n.exclusiveMinimum === undefined) n.minimum = Number.MIN_SAFE_INTEGER;
      if (n.maximum === undefined && n.exclusiveMaximum === undefined) n.maximum = Number.MAX_SAFE_INTEGER;
    }
    if (role === 'output' && n.properties && typeof n.properties === 'object') {
      const properties = n.properties as Record<string, Node>;
      const required = new Set(Array.isArray(n.required) ? (n.required as string[]) : []);
      const always = Object.keys(properties).filter(
        (k) => required.has(k) || properties[k]?.default !== undefined,
      );
      if (always.length) n.required = always;
    }
  });
}

function exportZod3(schema: ToolSchema, role: SchemaRole): Node {
  const out = zodToJsonSchema(schema as unknown as Parameters<typeof zodToJsonSchema>[0], {
    target: 'jsonSchema2019-09',
    $refStrategy: 'root',
    effectStrategy: role === 'input' ? 'input' : 'any',
    pipeStrategy: role,
  }) as Node;
  const upgraded = upgradeDraft07(out) as Node;
  alignWithZod4(upgraded, role);
  return upgraded;
}

/**
 * The one schema export of the platform. Zod 4 schemas go through Zod's own converter (with
 * `io: 'input'` for inputs, so defaulted fields are optional), Zod 3-API schemas through
 * zod-to-json-schema, JSON Schemas are upgraded from draft-07 where needed. `$schema` is dropped;
 * input objects get `additionalProperties: false`.
 *
 * Guards the Zod 4 trap: zod-to-json-schema returns an empty schema for Zod 4 objects, so an object
 * with fields that exports without properties is an error, never a silent `{}`.
 */
export function toJsonSchema(schema: ToolSchema, role: SchemaRole = 'input'): JsonSchemaObject {
  const kind = schemaKind(schema);
  let out: Node;
  if (kind === 'zod4') out = exportZod4(schema, role);
  else if (kind === 'zod3') out = exportZod3(schema, role);
  else if (kind === 'json') out = upgradeDraft07(schema as JsonSchemaObject) as Node;
  else throw new SchemaExportError('is not a Zod schema or a JSON Schema object');

  delete out.$schema;
  const fields = zodObjectFieldCount(schema);
  const exported =
    out.properties && typeof out.properties === 'object' ? Object.keys(out.properties).length : 0;
  if (fields !== undefined && fields > 0 && exported !== fields) {
    throw new SchemaExportError(`exported ${exported} of its ${fields} fields; refusing a lossy schema`);
  }
  if (role === 'input') closeObjects(out);
  return out;
}
