import { PI_CLASSES, type PiClass } from '@toolgate/contract/rules';
import { globalRegistry } from 'zod';
import { isZod3, isZod4 } from '../schema/schema-kind.js';

// Personal-information classes (PIPL, GB/T 35273), from the least to the most guarded: `personal`
// (names, phone numbers, addresses: stored with a partial mask, `138****5678`),
// `sensitive_personal` (ID numbers, bank cards, health, location, biometrics, minors: never
// stored, not even as a fingerprint), `important_data` (data the state classifies: sealed whole).
export { PI_CLASSES, type PiClass };

/** The JSON Schema keyword that carries a field's class in every exported schema (CONTRACT.md). */
export const PI_KEYWORD = 'x-toolgate-pi';

const marked = new WeakMap<object, PiClass>();

const isPiClass = (v: unknown): v is PiClass =>
  typeof v === 'string' && (PI_CLASSES as readonly string[]).includes(v);

/**
 * Marks a field as personal information of a class: its value never
 * reaches storage in clear — the audit trail, finished call records, runs and idempotency records
 * hold it masked the way its class says (ADR 036), and exported schemas carry `x-toolgate-pi`.
 * Without a class a field is `sensitive_personal` (never stored, not even partly): `sensitive()`
 * marked secrets before classes existed, and a PIN must not start showing its first digit.
 * The one way to mark a field; works with both Zod APIs and on input and output schemas.
 * @example inputSchema: z.object({ idCard: sensitive(z.string(), 'sensitive_personal'), phone: sensitive(z.string()) })
 */
export function sensitive<S extends object>(schema: S, piClass: PiClass = 'sensitive_personal'): S {
  if (!isPiClass(piClass)) throw new TypeError(`sensitive(): unknown class ${String(piClass)}`);
  marked.set(schema, piClass);
  return schema;
}

/**
 * The class a schema node is marked with: by `sensitive()`, by `x-toolgate-pi` in a plain JSON
 * Schema (imported and `dynamic` tools), or by Zod 4's `.meta({ sensitive: true })`, the older
 * spelling (deprecated, read as `sensitive_personal`, as bare `sensitive()` is: tool packs outside
 * this repository may still use it).
 */
export function piClassOf(schema: unknown): PiClass | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const own = marked.get(schema);
  if (own) return own;
  if (isZod4(schema)) {
    const meta = globalRegistry.get(schema as never) as Record<string, unknown> | undefined;
    if (isPiClass(meta?.[PI_KEYWORD])) return meta[PI_KEYWORD];
    return meta?.sensitive === true ? 'sensitive_personal' : undefined;
  }
  const keyword = (schema as Record<string, unknown>)[PI_KEYWORD];
  return isPiClass(keyword) ? keyword : undefined;
}

/** A path into an input; `*` stands for every element of an array or value of a record. */
export type FieldPath = readonly string[];

/** A marked field: where it is and its class. */
export interface MarkedField {
  readonly path: FieldPath;
  readonly piClass: PiClass;
}

type AnyDef = Record<string, any>;

// The wrappers whose inner schema carries the fields (optional, default, nullable, ...).
function innerOf(def: AnyDef, zod4: boolean): unknown[] {
  if (zod4) {
    switch (def.type) {
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'nonoptional':
      case 'readonly':
      case 'catch':
        return [def.innerType];
      case 'pipe':
        return [def.in];
      case 'union':
        return def.options ?? [];
      case 'intersection':
        return [def.left, def.right];
      default:
        return [];
    }
  }
  switch (def.typeName) {
    case 'ZodOptional':
    case 'ZodNullable':
    case 'ZodDefault':
    case 'ZodReadonly':
    case 'ZodCatch':
    case 'ZodBranded':
      return [def.innerType ?? def.type];
    case 'ZodEffects':
      return [def.schema];
    case 'ZodPipeline':
      return [def.in];
    case 'ZodUnion':
    case 'ZodDiscriminatedUnion':
      return [...(def.options instanceof Map ? def.options.values() : (def.options ?? []))];
    case 'ZodIntersection':
      return [def.left, def.right];
    default:
      return [];
  }
}

/** The marked fields of a plain JSON Schema (`x-toolgate-pi`), through properties, items, records and unions. */
function jsonSchemaFields(node: AnyDef, prefix: string[], depth: number): MarkedField[] {
  const out: MarkedField[] = [];
  if (node.properties && typeof node.properties === 'object')
    for (const [key, child] of Object.entries(node.properties as AnyDef))
      out.push(...markedFields(child, [...prefix, key], depth + 1));
  for (const k of ['items', 'additionalProperties'] as const)
    if (node[k] && typeof node[k] === 'object')
      out.push(...markedFields(node[k], [...prefix, '*'], depth + 1));
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const)
    if (Array.isArray(node[k]))
      for (const s of node[k] as unknown[]) out.push(...markedFields(s, prefix, depth + 1));
  return out;
}

/**
 * Every marked field of a schema (Zod of either API, or a plain JSON Schema), with its class.
 * Arrays and records contribute `*`. Computed once per tool at registration.
 */
export function markedFields(schema: unknown, prefix: string[] = [], depth = 0): MarkedField[] {
  if (!schema || typeof schema !== 'object' || depth > 32) return [];
  const piClass = piClassOf(schema);
  if (piClass) return [{ path: prefix, piClass }];
  const zod4 = isZod4(schema);
  if (!zod4 && !isZod3(schema)) return jsonSchemaFields(schema as AnyDef, prefix, depth);
  const def: AnyDef = zod4 ? (schema as AnyDef)._zod.def : (schema as AnyDef)._def;
  const kind = zod4 ? def.type : def.typeName;
  const out: MarkedField[] = [];
  if (kind === 'object' || kind === 'ZodObject') {
    const shape = zod4 ? def.shape : def.shape();
    for (const [key, child] of Object.entries(shape ?? {}))
      out.push(...markedFields(child, [...prefix, key], depth + 1));
    return out;
  }
  if (kind === 'array' || kind === 'ZodArray')
    return markedFields(zod4 ? def.element : def.type, [...prefix, '*'], depth + 1);
  if (kind === 'record' || kind === 'ZodRecord')
    return markedFields(def.valueType, [...prefix, '*'], depth + 1);
  for (const inner of innerOf(def, zod4)) out.push(...markedFields(inner, prefix, depth + 1));
  return out;
}

type JsonNode = Record<string, unknown>;

/** The nodes a path step leads to in an exported JSON Schema (through unions and nullable wrappers). */
function stepInto(node: JsonNode, step: string, depth = 0): JsonNode[] {
  const out: JsonNode[] = [];
  if (depth > 8) return out;
  if (step === '*') {
    for (const k of ['items', 'additionalProperties'] as const)
      if (node[k] && typeof node[k] === 'object') out.push(node[k] as JsonNode);
  } else {
    const child = (node.properties as JsonNode | undefined)?.[step];
    if (child && typeof child === 'object') out.push(child as JsonNode);
  }
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const)
    if (Array.isArray(node[k]))
      for (const s of node[k] as unknown[])
        if (s && typeof s === 'object') out.push(...stepInto(s as JsonNode, step, depth + 1));
  return out;
}

/**
 * Writes each marked field's class into an exported JSON Schema as `x-toolgate-pi`, so that
 * clients, the console and importers see which fields are personal information and how guarded.
 * A field reached only through a `$ref` is not annotated (the shared definition is not rewritten).
 */
export function annotatePiClasses(jsonSchema: JsonNode, fields: readonly MarkedField[]): void {
  for (const f of fields) {
    let nodes: JsonNode[] = [jsonSchema];
    for (const step of f.path) nodes = nodes.flatMap((n) => stepInto(n, step));
    for (const n of nodes) n[PI_KEYWORD] = f.piClass;
  }
}

/** The classes a list of marked fields touches, in `PI_CLASSES` order. */
export function piClassesOf(...lists: readonly (readonly MarkedField[])[]): PiClass[] {
  const seen = new Set(lists.flatMap((l) => l.map((f) => f.piClass)));
  return PI_CLASSES.filter((c) => seen.has(c));
}
