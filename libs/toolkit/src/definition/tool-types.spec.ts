import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { CallContext } from '../execution/call-context.js';
import type { ToolCallRequest } from '../execution/tool-call.js';
import type { ToolContext } from '../execution/tool-context.js';
import { defineConnector, type ConnectorDefinition } from './define-connector.js';
import { defineToolContract } from './define-tool-contract.js';
import type { ToolDeclaration, ToolDefinition } from './tool-definition.js';

// The assertions in this file are checked by `tsc` (the type check covers libs/**); at run time
// `expectTypeOf` does nothing, so the few runtime checks below keep the spec honest.

describe('defineToolContract(...).implement(...) infers its types from the schemas and the body', () => {
  it('types the input from a Zod 4 schema, defaults filled in', () => {
    const tool = defineToolContract({
      name: 'echo_text',
      description: 'Echoes its input.',
      inputSchema: z.object({ text: z.string(), times: z.number().int().default(1) }),
      risk: { level: 'L0' },
    }).implement((input) => {
      expectTypeOf(input).toEqualTypeOf<{ text: string; times: number }>();
      return { echoed: input.text.repeat(input.times) };
    });
    expectTypeOf(tool).toEqualTypeOf<ToolDefinition<{ text: string; times: number }, { echoed: string }>>();
    expectTypeOf(tool).toExtend<ToolDeclaration>();
    expect(tool).not.toHaveProperty('implementation');
  });

  it('infers the output from a sync, an async and a streaming body', () => {
    const base = { description: 'x', inputSchema: z.object({}), risk: { level: 'L0' } } as const;
    const sync = defineToolContract({ ...base, name: 'sync_tool' }).implement(() => 42);
    const promised = defineToolContract({ ...base, name: 'async_tool' }).implement(async () => ({
      ok: true,
    }));
    const streamed = defineToolContract({ ...base, name: 'stream_tool' }).implement(async function* () {
      yield { phase: 'half' as const };
      yield { phase: 'done' as const };
    });
    expectTypeOf(sync).toEqualTypeOf<ToolDefinition<Record<string, never>, number>>();
    expectTypeOf(promised).toEqualTypeOf<ToolDefinition<Record<string, never>, { ok: boolean }>>();
    expectTypeOf(streamed).toEqualTypeOf<
      ToolDefinition<Record<string, never>, { phase: 'half' } | { phase: 'done' }>
    >();
  });

  // The contract is declared before its body: the policy callbacks of the output (`toModelOutput`,
  // `endsTurn`, `label.complete`) get its type from `outputSchema` (or the second type argument).
  it('types the policy callbacks with the same input, and the output of the output schema', () => {
    const readLogs = defineToolContract({
      name: 'read_logs',
      description: 'Reads logs.',
      inputSchema: z.object({ service: z.string(), limit: z.number().optional() }),
      outputSchema: z.object({ lines: z.array(z.string()) }),
      risk: { level: 'L1' },
      approvalKey: (input) => {
        expectTypeOf(input).toEqualTypeOf<{ service: string; limit?: number | undefined }>();
        return input.service;
      },
      label: {
        start: ({ service }) => `reading ${service}`,
        complete: (_input, output) => {
          expectTypeOf(output).toEqualTypeOf<{ lines: string[] }>();
          return `${output.lines.length} lines`;
        },
      },
      toModelOutput: (output) => ({ type: 'text', value: output.lines.join('\n') }),
      endsTurn: (output) => output.lines.length === 0,
    });
    readLogs.implement(async ({ service }, ctx) => {
      expectTypeOf(ctx).toEqualTypeOf<ToolContext>();
      return { lines: [service] };
    });
    // @ts-expect-error the body must return what the output schema describes
    readLogs.implement(async () => ({ lines: 3 }));
  });

  it('refuses a body that reads a field the schema does not declare', () => {
    defineToolContract({
      name: 'strict_input',
      description: 'x',
      inputSchema: z.object({ service: z.string() }),
      risk: { level: 'L0' },
      // @ts-expect-error `region` is not part of the input schema
    }).implement(({ region }) => region);
  });

  it('types the input from a Zod 3-API schema, and a dynamic JSON Schema as a plain record', () => {
    defineToolContract({
      name: 'zod3_tool',
      description: 'x',
      inputSchema: z3.object({ id: z3.number() }),
      risk: { level: 'L0' },
    }).implement((input) => {
      expectTypeOf(input).toEqualTypeOf<{ id: number }>();
      return input.id;
    });
    defineToolContract({
      name: 'dynamic_tool',
      description: 'x',
      dynamic: true,
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
      risk: { level: 'L0' },
    }).implement((input) => {
      expectTypeOf(input).toEqualTypeOf<Record<string, unknown>>();
      return null;
    });
  });
});

describe('defineToolContract shares one typed contract between implementations', () => {
  const input = z.object({ supplierId: z.string() });
  const contract = defineToolContract<typeof input, { orders: number }>({
    name: 'query_orders',
    description: 'x',
    inputSchema: input,
    risk: { level: 'L1' },
  });

  it('hands out declarations and definitions typed like the contract', () => {
    expectTypeOf(contract.forImplementation('sap')).toEqualTypeOf<
      ToolDeclaration<{ supplierId: string }, { orders: number }>
    >();
    const sap = contract.implement('sap', async ({ supplierId }) => ({ orders: supplierId.length }));
    expectTypeOf(sap).toEqualTypeOf<ToolDefinition<{ supplierId: string }, { orders: number }>>();
    // @ts-expect-error an implementation must return the contract's output
    contract.implement('nc', async () => ({ orders: 'many' }));
    expect(sap.implementation).toBe('sap');
    expect(contract).not.toHaveProperty('implementation');
  });
});

class SapClient {
  constructor(readonly config: { baseUrl: string; client: string }) {}
  deliveries(): string[] {
    return [this.config.baseUrl];
  }
}

const sapConnector = defineConnector({
  name: 'sap',
  configSchema: z.object({ baseUrl: z.url(), client: z.string().regex(/^\d{3}$/) }),
  secretFields: [],
  create: (config) => {
    expectTypeOf(config).toEqualTypeOf<{ baseUrl: string; client: string }>();
    return new SapClient(config);
  },
});

function contextWith(clients: Record<string, unknown>): ToolContext {
  const request = {
    tenant: { id: 't1' },
    connectors: (_tenant: string | null, name: string) => clients[name],
  } as Partial<ToolCallRequest> as ToolCallRequest;
  return new CallContext('call-1', request);
}

describe('connectors are typed by their definition', () => {
  it('infers the configuration from the schema and the client from create', () => {
    expectTypeOf(sapConnector).toEqualTypeOf<
      ConnectorDefinition<{ baseUrl: string; client: string }, SapClient>
    >();
  });

  it('gives a tool the client type of the definition it passes', () => {
    const client = new SapClient({ baseUrl: 'https://sap.test', client: '100' });
    const ctx = contextWith({ sap: client });
    const sap = ctx.connector(sapConnector);
    expectTypeOf(sap).toEqualTypeOf<SapClient>();
    expect(sap).toBe(client);
    // @ts-expect-error a bare name is no longer accepted: it would be an unchecked cast
    expect(() => ctx.connector('sap')).toThrow();
  });

  it('throws CONNECTOR_NOT_CONFIGURED when the tenant has no such connector', () => {
    const ctx = contextWith({});
    expect(() => ctx.connector(sapConnector)).toThrow(
      expect.objectContaining({ code: 'CONNECTOR_NOT_CONFIGURED', params: { connector: 'sap' } }),
    );
  });
});
