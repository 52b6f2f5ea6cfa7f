import { RULE_LIMITS, type ToolRule } from '@toolgate/contract/rules';
import { describe, expect, it } from 'vitest';
import { compileRule, RuleCompileError, type RuleFacts } from './rule-compiler.js';
import { deniesEveryCall, firstMatch, outcomeOf } from './rule-decision.js';
import { ruleProblems } from './rule-tightening.js';

const facts = (over: Partial<RuleFacts> = {}): RuleFacts => ({
  input: {},
  principal: {
    type: 'api_key',
    id: 'key_1',
    keyId: 'key_1',
    person: '',
    role: 'agent',
    name: 'bot',
    agentType: 'ops',
  },
  tool: { name: 'restart_service', risk: 'L2', dataDomains: ['ops'], approval: 'never' },
  now: new Date('2026-03-02T03:00:00Z'), // Monday 11:00 in Asia/Shanghai
  face: 'rest',
  run: { id: '', step: 0 },
  ...over,
});
const rule = (id: string, when: string, then: ToolRule['then'] = 'deny'): ToolRule => ({
  id,
  when,
  then,
  ...(then === 'deny' ? { reason: { en: `no (${id})`, zh: `不行（${id}）` } } : {}),
});
const compile = (...rules: ToolRule[]) => rules.map(compileRule);

describe('rules in CEL (ADR 041)', () => {
  it('takes the first matching rule in written order', () => {
    const rules = compile(
      rule('small', 'input.amount <= 1000', 'allow'),
      rule('huge', 'input.amount > 50000'),
      rule('big', 'input.amount > 1000', 'require_approval'),
    );
    expect(firstMatch(rules, facts({ input: { amount: 800 } }))?.rule.id).toBe('small');
    expect(firstMatch(rules, facts({ input: { amount: 5000 } }))?.rule.id).toBe('big');
    expect(firstMatch(rules, facts({ input: { amount: 90000 } }))?.rule.id).toBe('huge');
    expect(firstMatch(compile(rule('x', 'input.amount < 0')), facts({ input: { amount: 1 } }))).toBeNull();
  });

  it('reads the time in a time zone: a weekday window in Beijing time', () => {
    const [freeze] = compile(
      rule(
        'freeze',
        'input.service == "payment-api" && now.getDayOfWeek("Asia/Shanghai") >= 1 && now.getDayOfWeek("Asia/Shanghai") <= 5 && now.getHours("Asia/Shanghai") >= 9 && now.getHours("Asia/Shanghai") < 18',
      ),
    );
    const at = (iso: string, service = 'payment-api') =>
      freeze!.matches(facts({ now: new Date(iso), input: { service } }));
    expect(at('2026-03-02T03:00:00Z')).toBe(true); // Monday 11:00 Beijing
    expect(at('2026-03-02T03:00:00Z', 'search-api')).toBe(false);
    expect(at('2026-03-02T11:00:00Z')).toBe(false); // Monday 19:00 Beijing (still 11:00 UTC)
    expect(at('2026-03-01T03:00:00Z')).toBe(false); // Sunday 11:00 Beijing
    expect(at('2026-03-02T00:30:00Z')).toBe(false); // Monday 08:30 Beijing
  });

  it('fails closed: a rule that cannot be evaluated decides, and denies', () => {
    const rules = compile(
      rule('memo', 'input.memo.startsWith("urgent")', 'allow'),
      rule('later', 'true', 'allow'),
    );
    const match = firstMatch(rules, facts({ input: {} }));
    expect(match).toMatchObject({ rule: { id: 'memo' }, failed: true });
    expect(outcomeOf(match!)).toBe('deny');
    expect(firstMatch(rules, facts({ input: { memo: 'urgent' } }))).toMatchObject({ failed: false });
  });

  it('decides a listing only from rules that do not read the call', () => {
    const listing = facts({ input: null });
    expect(deniesEveryCall(compile(rule('all', 'true')), listing)).toBe(true);
    expect(deniesEveryCall(compile(rule('others', 'principal.name != "bot"')), listing)).toBe(false);
    expect(deniesEveryCall(compile(rule('me', 'principal.name == "bot"')), listing)).toBe(true);
    // An input rule first: undecidable here, the tool stays listed.
    expect(deniesEveryCall(compile(rule('amount', 'input.amount > 1'), rule('all', 'true')), listing)).toBe(
      false,
    );
    expect(deniesEveryCall(compile(rule('face', 'face == "mcp"'), rule('all', 'true')), listing)).toBe(false);
    // An allow (or approval) first decides for the principal: listed.
    expect(deniesEveryCall(compile(rule('ok', 'true', 'allow'), rule('all', 'true')), listing)).toBe(false);
    expect(deniesEveryCall(compile(rule('no', 'false'), rule('all', 'true')), listing)).toBe(true);
  });

  it('refuses at compile time what it cannot bound or type', () => {
    const fails = (when: string) =>
      expect(() => compileRule(rule('r', when)), when).toThrow(RuleCompileError);
    fails('input.amount >');
    fails('nobody == 1');
    fails('1 + "a"');
    fails('input.amount + 1'); // a number, not true or false
    fails('input.items.exists(i, i.tags.all(t, t == "x"))');
    fails('input.name.matches("(a+)+$")');
    fails(Array.from({ length: RULE_LIMITS.astNodes }, (_, i) => `input.a${i} == 1`).join(' || '));
    fails(`${'('.repeat(RULE_LIMITS.depth + 2)}true${')'.repeat(RULE_LIMITS.depth + 2)}`);
    expect(compileRule(rule('r', 'input.items.exists(i, i.amount > 10)')).needsCall).toBe(true);
    expect(compileRule(rule('r', 'principal.role == "agent" && "ops" in tool.dataDomains')).needsCall).toBe(
      false,
    );
  });

  it('only tightens: allow cannot rule away an approval the tool requires', () => {
    const allow = [rule('ok', 'true', 'allow')];
    expect(ruleProblems(allow, { name: 't', riskLevel: 'L3', approval: 'always' })[0]).toMatchObject({
      index: 0,
      field: 'then',
    });
    expect(ruleProblems(allow, { name: 't', riskLevel: 'L2', approval: 'once' })).toHaveLength(1);
    expect(ruleProblems(allow, { name: 't', riskLevel: 'L2', approval: 'never' })).toEqual([]);
    const strict = [rule('no', 'true'), rule('ask', 'input.x > 1', 'require_approval')];
    expect(ruleProblems(strict, { name: 't', riskLevel: 'L3', approval: 'always' })).toEqual([]);
  });

  it('refuses an approver group the tenant does not have', () => {
    const ask: ToolRule = {
      id: 'big',
      when: 'input.amount > 1000',
      then: 'require_approval',
      approverGroup: 'finance-leads',
    };
    const tool = { name: 't', riskLevel: 'L2', approval: 'never' } as const;
    expect(ruleProblems([ask], tool)[0]).toMatchObject({ index: 0, field: 'approverGroup' });
    expect(ruleProblems([ask], tool, new Set(['finance-leads']))).toEqual([]);
  });

  it('takes mask and limit as outcomes that let the call go on: never hidden from a listing', () => {
    const listing = facts({ input: null });
    const masks: ToolRule = { id: 'm', when: 'true', then: 'mask', mask: { input: ['idNumber'] } };
    const limits: ToolRule = {
      id: 'l',
      when: 'true',
      then: 'limit',
      limit: { max: 5, per: 'hour', scope: 'key' },
    };
    expect(deniesEveryCall(compile(masks, rule('all', 'true')), listing)).toBe(false);
    expect(deniesEveryCall(compile(limits, rule('all', 'true')), listing)).toBe(false);
    expect(outcomeOf(firstMatch(compile(limits), facts())!)).toBe('limit');
    // Neither loosens the tool's approval: allowed on an L3 tool.
    expect(ruleProblems([masks, limits], { name: 't', riskLevel: 'L3', approval: 'always' })).toEqual([]);
  });
});
