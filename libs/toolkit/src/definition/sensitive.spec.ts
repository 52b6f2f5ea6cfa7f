import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as z3 from 'zod/v3';
import { checkContract } from '../registry/definition-rules.js';
import { markedFields, PI_KEYWORD, sensitive } from './sensitive.js';

const declaration = (inputSchema: unknown, outputSchema?: unknown) =>
  ({
    name: 'file_complaint',
    description: 'Files a complaint.',
    inputSchema,
    outputSchema,
    risk: { level: 'L1' },
    execute: () => ({}),
  }) as never;

describe('sensitive(): one way to mark a field, with a class', () => {
  it('finds marked fields with their class through objects, arrays, records and wrappers, in both Zod APIs', () => {
    for (const zz of [z, z3] as const) {
      const schema = (zz as typeof z).object({
        name: sensitive((zz as typeof z).string(), 'personal'),
        pin: sensitive((zz as typeof z).string()),
        ids: (zz as typeof z).array(sensitive((zz as typeof z).string(), 'sensitive_personal')),
        byDay: (zz as typeof z).record(
          (zz as typeof z).string(),
          sensitive((zz as typeof z).number(), 'important_data'),
        ),
        plain: (zz as typeof z).string().optional(),
      });
      expect(markedFields(schema)).toEqual([
        { path: ['name'], piClass: 'personal' },
        // Unclassed, as before classes: never stored, not even partly.
        { path: ['pin'], piClass: 'sensitive_personal' },
        { path: ['ids', '*'], piClass: 'sensitive_personal' },
        { path: ['byDay', '*'], piClass: 'important_data' },
      ]);
    }
  });

  it('reads x-toolgate-pi in plain JSON Schemas and the deprecated .meta({ sensitive: true }) as sensitive_personal', () => {
    const json = {
      type: 'object',
      properties: {
        card: { type: 'string', [PI_KEYWORD]: 'sensitive_personal' },
        people: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string', [PI_KEYWORD]: 'personal' } } },
        },
        bogus: { type: 'string', [PI_KEYWORD]: 'secret' },
      },
    };
    expect(markedFields(json)).toEqual([
      { path: ['card'], piClass: 'sensitive_personal' },
      { path: ['people', '*', 'name'], piClass: 'personal' },
    ]);
    expect(markedFields(z.object({ pin: z.string().meta({ sensitive: true }) }))).toEqual([
      { path: ['pin'], piClass: 'sensitive_personal' },
    ]);
  });

  it('refuses a class it does not know', () => {
    expect(() => sensitive(z.string(), 'secret' as never)).toThrow(/unknown class/);
  });

  it('writes each class into the exported schemas, lists the classes, and counts them in the contract hash', () => {
    const input = z.object({
      customer: sensitive(z.string(), 'personal'),
      idNumber: sensitive(z.string(), 'sensitive_personal').nullable(),
      note: z.string(),
    });
    const output = z.object({ handler: sensitive(z.string(), 'personal') });
    const checked = checkContract(declaration(input, output));
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    const properties = checked.contract.input.jsonSchema.properties as Record<
      string,
      Record<string, unknown>
    >;
    expect(properties.customer![PI_KEYWORD]).toBe('personal');
    expect(properties.idNumber![PI_KEYWORD]).toBe('sensitive_personal');
    expect(properties.note![PI_KEYWORD]).toBeUndefined();
    const out = checked.contract.output!.jsonSchema.properties as Record<string, Record<string, unknown>>;
    expect(out.handler![PI_KEYWORD]).toBe('personal');
    expect(checked.contract.piClasses).toEqual(['personal', 'sensitive_personal']);
    expect(checked.contract.outputSensitivePaths).toEqual([{ path: ['handler'], piClass: 'personal' }]);
    const unmarked = checkContract(
      declaration(
        z.object({ customer: z.string(), idNumber: z.string().nullable(), note: z.string() }),
        z.object({ handler: z.string() }),
      ),
    );
    expect(unmarked.ok && unmarked.contract.contractHash).not.toBe(checked.contract.contractHash);
    expect(unmarked.ok && unmarked.contract.piClasses).toEqual([]);
  });
});
