import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as z3 from 'zod/v3';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { SchemaExportError, toJsonSchema } from './json-schema.js';

const v4 = z.object({
  service: z.string().min(1).describe('服务名，例如 payment-api'),
  window: z.enum(['5m', '1h', '24h']).default('1h'),
  limit: z.number().int().min(1).max(200).default(50),
  note: z.string().optional(),
});
const v3 = z3.z.object({
  service: z3.z.string().min(1).describe('服务名'),
  limit: z3.z.number().int().default(50),
  note: z3.z.string().optional(),
});

describe('toJsonSchema', () => {
  it('shows the trap it guards against: zod-to-json-schema empties Zod 4 objects', () => {
    const trap = zodToJsonSchema(v4 as never) as Record<string, unknown>;
    expect(trap.properties).toBeUndefined();
  });

  it('converts Zod 4 with Zod 4s own converter: descriptions, defaults, optional fields, no $schema', () => {
    const s = toJsonSchema(v4) as any;
    expect(s.$schema).toBeUndefined();
    expect(Object.keys(s.properties)).toEqual(['service', 'window', 'limit', 'note']);
    expect(s.properties.service.description).toBe('服务名，例如 payment-api');
    expect(s.properties.limit.default).toBe(50);
    expect(s.required).toEqual(['service']);
    expect(s.additionalProperties).toBe(false);
  });

  it('converts Zod 3-API schemas with zod-to-json-schema', () => {
    const s = toJsonSchema(v3 as never) as any;
    expect(s.$schema).toBeUndefined();
    expect(Object.keys(s.properties)).toEqual(['service', 'limit', 'note']);
    expect(s.properties.service.description).toBe('服务名');
    expect(s.properties.limit.default).toBe(50);
    expect(s.required).toEqual(['service']);
    expect(s.additionalProperties).toBe(false);
  });

  it('closes nested input objects too', () => {
    const s = toJsonSchema(z.object({ a: z.object({ b: z.array(z.object({ c: z.string() })) }) })) as any;
    expect(s.properties.a.additionalProperties).toBe(false);
    expect(s.properties.a.properties.b.items.additionalProperties).toBe(false);
  });

  it('upgrades draft-07 tuples and dependencies of plain JSON Schemas', () => {
    const s = toJsonSchema({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false },
      },
      dependencies: { a: ['b'] },
    }) as any;
    expect(s.$schema).toBeUndefined();
    expect(s.properties.pair.prefixItems).toHaveLength(2);
    expect(s.properties.pair.items).toBe(false);
    expect(s.dependentRequired).toEqual({ a: ['b'] });
  });

  it('refuses types JSON cannot carry instead of exporting them as anything', () => {
    expect(() => toJsonSchema(z.object({ at: z.date() }))).toThrow(SchemaExportError);
  });
});
