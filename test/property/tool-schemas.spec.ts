import { Test } from '@nestjs/testing';
import { ErpToolsModule, OpsToolsModule } from '@toolgate/tool-packs';
import { ToolkitModule, ToolRegistry } from '@toolgate/toolkit';
import { createAjv, type RegisteredContract } from '@toolgate/toolkit/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mutationsOf, valuesOf } from '../support/json-schema-arbitrary.js';
import { TestToolsModule } from '../e2e/test-tools.js';

/**
 * Every registered tool's exported JSON Schema says the same as its Zod schema: inputs Zod accepts
 * pass Ajv, inputs Zod rejects fail Ajv. The one knowing exception: cross-field refinements
 * (`.refine`) that JSON Schema cannot express; Zod still enforces them on every call.
 */
describe('exported input schemas agree with Zod (property test over every registered tool)', () => {
  let tools: RegisteredContract[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        ToolkitModule.forRoot({ defaultLocale: 'en' }),
        OpsToolsModule,
        ErpToolsModule,
        TestToolsModule,
      ],
    }).compile();
    await moduleRef.init();
    tools = moduleRef.get(ToolRegistry).list();
    close = () => moduleRef.close();
  });
  afterAll(() => close());

  const zodOf = (tool: RegisteredContract) =>
    tool.declaration.inputSchema as {
      safeParse(v: unknown): { success: boolean; error?: { issues: { code: string }[] } };
    };

  it('covers every tool of the packs', () => {
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        'get_service_status',
        'read_logs',
        'restart_service',
        'query_supplier_delivery',
        'create_refund',
        'build_report',
        'noop',
      ]),
    );
    // Every exported schema is a closed object whose required fields are all declared properties.
    for (const t of tools) {
      const schema = t.input.jsonSchema as { type?: string; properties?: object; required?: string[] };
      expect(schema, t.name).toMatchObject({ type: 'object', additionalProperties: false });
      expect(Object.keys(schema.properties ?? {}), t.name).toEqual(
        expect.arrayContaining(schema.required ?? []),
      );
    }
  });

  it('accepts under Ajv what Zod accepts, and rejects what Zod rejects', () => {
    const ajv = createAjv();
    const checked: string[] = [];
    for (const tool of tools) {
      const schema = tool.input.jsonSchema as Record<string, any>;
      const validate = ajv.compile(schema);
      const zod = zodOf(tool);
      const agree = (value: unknown) => {
        const z = zod.safeParse(value);
        const onlyRefinements = !z.success && z.error!.issues.every((i) => i.code === 'custom');
        if (onlyRefinements) return true; // not expressible in JSON Schema; enforced by Zod at run time
        // Zod strips unknown keys; the platform refuses them, as the exported schema does.
        const strictZod = z.success && tool.input.check(value).ok;
        if (strictZod !== validate(value)) {
          throw new Error(
            `${tool.name}: Zod ${strictZod ? 'accepts' : 'rejects'} but Ajv ${strictZod ? 'rejects' : 'accepts'} ${JSON.stringify(value)}`,
          );
        }
        return true;
      };
      fc.assert(
        fc.property(valuesOf(schema), (v) => agree(v) && validate(v) === true),
        { numRuns: 150 },
      );
      fc.assert(fc.property(mutationsOf(schema), agree), { numRuns: 300 });
      checked.push(tool.name);
    }
    expect(checked).toEqual(expect.arrayContaining(['restart_service', 'query_supplier_delivery', 'noop']));
  });
});
