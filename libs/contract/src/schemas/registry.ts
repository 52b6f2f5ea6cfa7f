import { z } from 'zod';

/**
 * The contract's named schemas: each becomes `components.schemas.<id>` of the OpenAPI document, and
 * any schema nested in another is written there as a `$ref`.
 */
export const contractRegistry = z.registry<{ id: string; description?: string }>();

/** Registers `schema` under `id` (its OpenAPI component name) and returns it. */
export function named<S extends z.ZodType>(id: string, schema: S, description?: string): S {
  contractRegistry.add(schema, description ? { id, description } : { id });
  return schema;
}
