import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as z3 from 'zod/v3';
import { defineToolContract } from '../definition/define-tool-contract.js';
import type { ToolDefinition } from '../definition/tool-definition.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import { toJsonSchema } from './json-schema.js';
import { exportTool, TOOL_LIST_FORMATS } from './tool-formats.js';

// Upstream libraries still ship Zod 3-API schemas; zod-to-json-schema exports them (ADR 002).
// A tool written with either must describe itself the same way to every caller.

const v4 = {
  input: z.object({
    service: z.string().min(1).max(64).describe('服务名，例如 payment-api'),
    window: z.enum(['5m', '1h', '24h']).default('1h'),
    limit: z.number().int().min(1).max(200).default(50),
    offset: z.number().int(),
    after: z.number().int().positive().optional(),
    ratio: z.number().min(0).max(1),
    tags: z.array(z.string()).max(5).optional(),
    filter: z.object({ level: z.enum(['info', 'error']), text: z.string().nullable() }),
    mode: z.literal('tail'),
    either: z.union([z.string(), z.number()]),
  }),
  output: z.object({
    lines: z.array(z.string()),
    truncated: z.boolean().default(false),
    count: z.number().int(),
  }),
};
const v3 = {
  input: z3.z.object({
    service: z3.z.string().min(1).max(64).describe('服务名，例如 payment-api'),
    window: z3.z.enum(['5m', '1h', '24h']).default('1h'),
    limit: z3.z.number().int().min(1).max(200).default(50),
    offset: z3.z.number().int(),
    after: z3.z.number().int().positive().optional(),
    ratio: z3.z.number().min(0).max(1),
    tags: z3.z.array(z3.z.string()).max(5).optional(),
    filter: z3.z.object({ level: z3.z.enum(['info', 'error']), text: z3.z.string().nullable() }),
    mode: z3.z.literal('tail'),
    either: z3.z.union([z3.z.string(), z3.z.number()]),
  }),
  output: z3.z.object({
    lines: z3.z.array(z3.z.string()),
    truncated: z3.z.boolean().default(false),
    count: z3.z.number().int(),
  }),
};

const tool = (schemas: { input: unknown; output: unknown }): ToolDefinition =>
  // The output type is left open: the body returns what the schema's default completes.
  defineToolContract<typeof v4.input, unknown>({
    name: 'read_logs',
    description: 'Reads the latest log lines of a service.',
    inputSchema: schemas.input as typeof v4.input,
    outputSchema: schemas.output as typeof v4.output,
    risk: { level: 'L0' },
  }).implement(() => ({ lines: [], count: 0 })) as ToolDefinition;

function registered(definition: ToolDefinition) {
  const registry = new ToolRegistry();
  registry.register(definition, 'spec');
  registry.seal();
  return registry.get('read_logs')!;
}

describe('a tool written with Zod 3', () => {
  it('exports the JSON Schema the same tool written with Zod 4 exports, input and output', () => {
    for (const role of ['input', 'output'] as const)
      expect(toJsonSchema(v3[role] as never, role), role).toEqual(toJsonSchema(v4[role], role));
  });

  it('is listed the same way in every tool-list format', () => {
    const a = { contract: registered(tool(v3)), timeoutMs: 10_000, approval: 'never' as const };
    const b = { contract: registered(tool(v4)), timeoutMs: 10_000, approval: 'never' as const };
    for (const format of TOOL_LIST_FORMATS)
      expect(exportTool(a, format, 'en'), format).toEqual(exportTool(b, format, 'en'));
  });

  it('writes exclusive bounds the 2020-12 way (zod-to-json-schema writes draft-04 booleans)', () => {
    const s = toJsonSchema(z3.z.object({ n: z3.z.number().gt(0).lt(10) }) as never) as any;
    expect(s.properties.n).toEqual({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10 });
  });
});
