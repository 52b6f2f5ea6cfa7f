import type { JsonSchemaObject, ToolSchema, Zod3Schema, Zod4Schema } from '../definition/tool-definition.js';

/** Which API a schema was written with. */
export type SchemaKind = 'zod4' | 'zod3' | 'json';

export function isZod4(schema: unknown): schema is Zod4Schema & { safeParse(v: unknown): ZodParseResult } {
  return typeof schema === 'object' && schema !== null && '_zod' in schema;
}

export function isZod3(schema: unknown): schema is Zod3Schema & { safeParse(v: unknown): ZodParseResult } {
  return (
    typeof schema === 'object' &&
    schema !== null &&
    !('_zod' in schema) &&
    '_def' in schema &&
    typeof (schema as { safeParse?: unknown }).safeParse === 'function'
  );
}

/** The result shape shared by both Zod APIs. */
export type ZodParseResult =
  { success: true; data: unknown } | { success: false; error: { issues: readonly unknown[] } };

/** Tells which API a schema uses; undefined when it is none of them. */
export function schemaKind(schema: ToolSchema | undefined): SchemaKind | undefined {
  if (schema === undefined || schema === null || typeof schema !== 'object') return undefined;
  if (isZod4(schema)) return 'zod4';
  if (isZod3(schema)) return 'zod3';
  return 'json';
}

/** The number of declared fields of a Zod object schema (either API), or undefined for non-objects. */
export function zodObjectFieldCount(schema: unknown): number | undefined {
  if (isZod4(schema)) {
    const def = (schema as unknown as { _zod: { def: { type: string; shape?: object } } })._zod.def;
    return def.type === 'object' && def.shape ? Object.keys(def.shape).length : undefined;
  }
  if (isZod3(schema)) {
    const def = schema._def as { typeName?: string; shape?: () => object };
    return def.typeName === 'ZodObject' && def.shape ? Object.keys(def.shape()).length : undefined;
  }
  return undefined;
}

export type { JsonSchemaObject };
