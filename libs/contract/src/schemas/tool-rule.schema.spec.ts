import { describe, expect, it } from 'vitest';
import { bindingToolSchema, toolRuleSchema } from './bindings.schema.js';

const issues = (value: unknown) => {
  const r = toolRuleSchema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('rule and guardrail fields (issue 26)', () => {
  it('takes mask and limit rules with their own fields only', () => {
    expect(
      issues({ id: 'm', when: 'true', then: 'mask', mask: { input: ['customer.idNumber', 'items.*.card'] } }),
    ).toEqual([]);
    expect(
      toolRuleSchema.parse({ id: 'l', when: 'true', then: 'limit', limit: { max: 5, per: 'hour' } }).limit,
    ).toEqual({
      max: 5,
      per: 'hour',
      scope: 'key',
    });
    expect(issues({ id: 'm', when: 'true', then: 'mask' })).toEqual([expect.stringContaining('mask')]);
    expect(issues({ id: 'm', when: 'true', then: 'mask', mask: {} })).toHaveLength(1);
    expect(issues({ id: 'm', when: 'true', then: 'mask', mask: { input: ['a..b'] } })).toHaveLength(1);
    expect(issues({ id: 'l', when: 'true', then: 'limit' })).toEqual([expect.stringContaining('limit')]);
    expect(
      issues({ id: 'x', when: 'true', then: 'allow', limit: { max: 1, per: 'day' }, approverGroup: 'leads' }),
    ).toEqual([expect.stringMatching(/^approverGroup: /), expect.stringMatching(/^limit: /)]);
    expect(
      issues({ id: 'a', when: 'true', then: 'require_approval', approverGroup: 'finance-leads' }),
    ).toEqual([]);
  });

  it('takes guardrails per side: injection on results only, require_approval on inputs only', () => {
    const ok = bindingToolSchema.safeParse({
      name: 't',
      guardrails: {
        input: { pii: ['cn_id'], secrets: true, action: 'require_approval' },
        output: { injection: true, action: 'mask' },
      },
    });
    expect(ok.success).toBe(true);
    expect(
      bindingToolSchema.safeParse({ name: 't', guardrails: { input: { injection: true, action: 'block' } } })
        .success,
    ).toBe(false);
    expect(
      bindingToolSchema.safeParse({
        name: 't',
        guardrails: { output: { secrets: true, action: 'require_approval' } },
      }).success,
    ).toBe(false);
    expect(
      bindingToolSchema.safeParse({ name: 't', guardrails: { input: { action: 'block' } } }).success,
    ).toBe(false);
  });
});
