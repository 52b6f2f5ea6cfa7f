import { describe, expect, it } from 'vitest';
// The index, so that every named schema is registered.
import { contractComponentSchemas } from '../index.js';
import { asOpenApi30 } from './openapi-30.js';

type Node = Record<string, unknown>;

/** Every schema object under `node`, with its JSON pointer. */
function schemasIn(node: unknown, at = '#', out: [string, Node][] = []): [string, Node][] {
  if (Array.isArray(node)) node.forEach((n, i) => schemasIn(n, `${at}/${i}`, out));
  else if (node && typeof node === 'object') {
    out.push([at, node as Node]);
    for (const [k, v] of Object.entries(node)) schemasIn(v, `${at}/${k}`, out);
  }
  return out;
}

describe('asOpenApi30', () => {
  const components = {
    Risk: { type: 'string', enum: ['L0', 'L1'] },
    Call: { type: 'object', properties: { id: { type: 'string' } } },
    Result: { anyOf: [{ type: 'object' }, { $ref: '#/components/schemas/Call' }] },
  };

  it('gives a nullable reference the type of what it refers to, through unions', () => {
    const out = asOpenApi30({
      ...components,
      View: {
        type: 'object',
        properties: {
          risk: { nullable: true, allOf: [{ $ref: '#/components/schemas/Risk' }] },
          call: { nullable: true, description: 'd', allOf: [{ $ref: '#/components/schemas/Call' }] },
          result: { nullable: true, allOf: [{ $ref: '#/components/schemas/Result' }] },
        },
      },
    });
    expect((out.View!.properties as Node).risk).toEqual({
      nullable: true,
      type: 'string',
      allOf: [{ $ref: '#/components/schemas/Risk' }],
    });
    expect((out.View!.properties as Node).call).toMatchObject({ nullable: true, type: 'object' });
    expect((out.View!.properties as Node).result).toMatchObject({ nullable: true, type: 'object' });
  });

  it('drops nullable from a schema of any value, and unwraps an allOf of one with nothing beside it', () => {
    const out = asOpenApi30({
      ...components,
      View: {
        type: 'object',
        properties: {
          anything: { nullable: true },
          risk: { allOf: [{ $ref: '#/components/schemas/Risk' }] },
        },
      },
    });
    expect(out.View!.properties).toEqual({ anything: {}, risk: { $ref: '#/components/schemas/Risk' } });
  });

  it('defines every key of a record with enum keys', () => {
    const out = asOpenApi30({
      ByStatus: {
        type: 'object',
        additionalProperties: { type: 'integer' },
        required: ['running', 'failed'],
      },
    });
    expect(out.ByStatus!.properties).toEqual({ running: { type: 'integer' }, failed: { type: 'integer' } });
  });
});

describe('the contract as OpenAPI 3.0 components', () => {
  const schemas = contractComponentSchemas();

  it('writes no nullable without a type and no required property it does not define', () => {
    const problems = schemasIn(schemas).flatMap(([at, s]) => [
      ...(s.nullable === true && s.type === undefined ? [`${at}: nullable without type`] : []),
      ...(Array.isArray(s.required)
        ? (s.required as string[])
            .filter((k) => !(s.properties as Node | undefined)?.[k])
            .map((k) => `${at}: requires undefined ${k}`)
        : []),
    ]);
    expect(problems).toEqual([]);
  });

  it('lists every run status in RunStatsRow.byStatus', () => {
    const byStatus = (schemas.RunStatsRow!.properties as Node).byStatus as Node;
    expect(Object.keys(byStatus.properties as Node)).toEqual(byStatus.required);
  });
});
