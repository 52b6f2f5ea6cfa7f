import { Redactor } from '@toolgate/audit';
import { compileSchema, toJsonSchema } from '@toolgate/toolkit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { maskPathProblems } from './mask-paths.js';
import { maskInput, unfitMask } from './rule-mask.js';

const refund = z.object({
  orderId: z.string(),
  amount: z.number().positive(),
  currency: z.enum(['CNY', 'USD']),
  customer: z.object({ idNumber: z.string(), phone: z.string().regex(/^\d{11}$/) }),
  items: z.array(z.object({ card: z.string(), qty: z.number().int() })),
  tags: z.record(z.string(), z.string()),
  note: z.union([z.string(), z.number()]).optional(),
});
const schema = toJsonSchema(refund);

describe('mask paths checked against the tool’s input schema (issue 26)', () => {
  it('accepts string fields, nested, through arrays and records, and unions with a string', () => {
    expect(
      maskPathProblems(['orderId', 'customer.idNumber', 'items.*.card', 'tags.*', 'note'], schema),
    ).toEqual([]);
  });

  it('refuses paths a masked string would break, and paths that name nothing', () => {
    const problems = maskPathProblems(
      ['amount', 'currency', 'items.*.qty', 'customer', 'custmer.idNumber'],
      schema,
    );
    expect(problems).toEqual([
      expect.stringContaining('"amount" names a field of type number'),
      expect.stringContaining('"currency" names a field of type enum'),
      expect.stringContaining('"items.*.qty" names a field of type integer'),
      expect.stringContaining('"customer" names a field of type object'),
      expect.stringContaining('"custmer.idNumber" names no field'),
    ]);
  });

  it('leaves what the schema keeps open to the call-time check', () => {
    expect(maskPathProblems(['anything.deep'], { type: 'object' })).toEqual([]);
    expect(maskPathProblems(['x'], { $ref: '#/$defs/X' })).toEqual([]);
  });

  it('refuses at call time a masked input the tool’s own schema refuses (a pattern the save check cannot see)', () => {
    const redactor = new Redactor({ mode: 'mask', patterns: ['mobile'] }, Buffer.from('k'));
    const input = {
      orderId: 'o-1',
      amount: 5,
      currency: 'CNY',
      customer: { idNumber: '11010519491231002X', phone: '13812345678' },
      items: [],
      tags: {},
    };
    const compiled = compileSchema(refund, 'input');
    const ok = maskInput(redactor, input, { input: ['customer.idNumber'] }, compiled);
    expect(ok).toMatchObject({
      ok: true,
      value: { customer: { idNumber: '[REDACTED]', phone: '13812345678' } },
    });
    const unfit = maskInput(redactor, input, { input: ['customer.phone'], piClass: 'personal' }, compiled);
    expect(unfit.ok).toBe(false);
    const match = unfitMask(
      { rule: { id: 'm', when: 'true', then: 'mask' }, failed: false },
      unfit.ok ? [] : unfit.issues,
    );
    expect(match).toMatchObject({ failed: true, error: expect.stringContaining('customer.phone') });
    expect(match.error).not.toContain('13812345678');
  });
});
