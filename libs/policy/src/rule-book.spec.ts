import type { ToolRule } from '@toolgate/contract/rules';
import { describe, expect, it } from 'vitest';
import { RuleBook } from './rule-book.js';

const source = (tenantId: string, bindingVersion: number | null = 3) => ({
  tenantId,
  agentType: 'finance',
  bindingVersion,
  tool: 'refund_order',
});
const rules = (limit: number): ToolRule[] => [
  { id: 'big', when: `input.amount > ${limit}`, then: 'require_approval' },
];

describe('RuleBook', () => {
  it('compiles once per tenant, agent type, binding version and tool', () => {
    const book = new RuleBook();
    const written = rules(1000);
    const first = book.rulesOf(source('acme'), written);
    expect(book.rulesOf(source('acme'), written)).toBe(first);
    // A refreshed snapshot reads the same version again: same text, nothing recompiled.
    expect(book.rulesOf(source('acme'), rules(1000))).toBe(first);
    // Tenants apart: the same key fields of another tenant are another entry.
    expect(book.rulesOf(source('globex'), written)).not.toBe(first);
  });

  it('never trusts a version number alone: other rules under it are compiled anew', () => {
    const book = new RuleBook();
    const before = book.rulesOf(source('acme'), rules(1000));
    const after = book.rulesOf(source('acme'), rules(5));
    expect(after).not.toBe(before);
    expect(after[0]!.matches({ input: { amount: 10 } } as never)).toBe(true);
  });

  it('keeps a rule that does not compile as one that refuses every call', () => {
    const book = new RuleBook();
    const [broken] = book.rulesOf(source('acme'), [{ id: 'bad', when: 'input.amount >', then: 'allow' }]);
    expect(() => broken!.matches({ input: { amount: 1 } } as never)).toThrow(/does not compile/);
  });
});
