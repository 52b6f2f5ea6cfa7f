import { globalRegistry } from 'zod';
import { isZod3, isZod4 } from '../schema/schema-kind.js';

const marked = new WeakSet<object>();

/**
 * Marks a field as sensitive: its value never reaches the audit trail (it is masked or
 * fingerprinted before anything is stored). Works with both Zod APIs. With Zod 4,
 * `.meta({ sensitive: true })` has the same effect.
 * @example inputSchema: z.object({ idCard: sensitive(z.string()), amount: z.number() })
 */
export function sensitive<S extends object>(schema: S): S {
  marked.add(schema);
  return schema;
}

/** True when a schema node was marked with `sensitive()` or `.meta({ sensitive: true })`. */
export function isMarkedSensitive(schema: unknown): boolean {
  if (!schema || typeof schema !== 'object') return false;
  if (marked.has(schema)) return true;
  return (
    isZod4(schema) &&
    (globalRegistry.get(schema as never) as { sensitive?: unknown } | undefined)?.sensitive === true
  );
}

/** A path into an input; `*` stands for every element of an array or value of a record. */
export type FieldPath = readonly string[];

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

/**
 * Every path of a Zod schema (either API) whose field is marked sensitive. Arrays and records
 * contribute `*`. Computed once per tool at registration.
 */
export function sensitivePaths(schema: unknown, prefix: string[] = [], depth = 0): FieldPath[] {
  if (!schema || typeof schema !== 'object' || depth > 32) return [];
  if (isMarkedSensitive(schema)) return [prefix];
  const zod4 = isZod4(schema);
  if (!zod4 && !isZod3(schema)) return [];
  const def: AnyDef = zod4 ? (schema as AnyDef)._zod.def : (schema as AnyDef)._def;
  const kind = zod4 ? def.type : def.typeName;
  const out: FieldPath[] = [];
  if (kind === 'object' || kind === 'ZodObject') {
    const shape = zod4 ? def.shape : def.shape();
    for (const [key, child] of Object.entries(shape ?? {}))
      out.push(...sensitivePaths(child, [...prefix, key], depth + 1));
    return out;
  }
  if (kind === 'array' || kind === 'ZodArray')
    return sensitivePaths(zod4 ? def.element : def.type, [...prefix, '*'], depth + 1);
  if (kind === 'record' || kind === 'ZodRecord')
    return sensitivePaths(def.valueType, [...prefix, '*'], depth + 1);
  for (const inner of innerOf(def, zod4)) out.push(...sensitivePaths(inner, prefix, depth + 1));
  return out;
}
