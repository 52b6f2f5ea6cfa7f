import { z } from 'zod';
import { asOpenApi30 } from './openapi-30.js';
import { contractRegistry } from './registry.js';

/** Where OpenAPI keeps named schemas; `$ref`s between contract schemas point here. */
export const COMPONENTS_PATH = '#/components/schemas/';

/**
 * Every named contract schema as an OpenAPI 3.0 schema object, for `components.schemas`: what the
 * server sends (`io: 'output'`: defaults applied, transforms done), nested named schemas as `$ref`s,
 * and what Zod writes that 3.0 refuses rewritten (asOpenApi30).
 */
export function contractComponentSchemas(): Record<string, Record<string, unknown>> {
  const { schemas } = z.toJSONSchema(contractRegistry, {
    target: 'openapi-3.0',
    io: 'output',
    uri: (id) => `${COMPONENTS_PATH}${id}`,
  });
  return asOpenApi30(
    Object.fromEntries(
      Object.entries(schemas).map(([id, schema]) => {
        const { $id: _id, $schema: _schema, ...rest } = schema as Record<string, unknown>;
        return [id, rest];
      }),
    ),
  );
}

/** The `$ref` to a named contract schema; throws for a schema the contract did not name. */
export function componentRef(schema: z.ZodType): { $ref: string } {
  const meta = contractRegistry.get(schema);
  if (!meta) throw new Error('this schema has no name in the contract registry');
  return { $ref: `${COMPONENTS_PATH}${meta.id}` };
}
