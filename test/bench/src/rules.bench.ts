import type { ToolRule } from '@toolgate/contract/rules';
import { compileRule, firstMatch, type RuleFacts } from '@toolgate/policy';
import { percentiles, printTable } from './bench-support.js';

const CALLS = 200_000;
const WARMUP = 20_000;

const facts = (amount: number): RuleFacts => ({
  input: { orderId: 'o-1', amount, currency: 'CNY' },
  principal: {
    type: 'api_key',
    id: 'key_1',
    keyId: 'key_1',
    person: '',
    role: 'agent',
    name: 'bot',
    agentType: 'finance',
  },
  tool: { name: 'refund_order', risk: 'L2', dataDomains: ['finance'], approval: 'never' },
  now: new Date(),
  face: 'rest',
  run: { id: '', step: 0 },
});

/** Nine rules that never match an ordinary refund, and a tenth that matches amounts over 1,000. */
function tenRules(): ToolRule[] {
  const rules: ToolRule[] = Array.from({ length: 9 }, (_, i) => ({
    id: `miss-${i}`,
    when: `principal.name == "nobody-${i}" && input.amount > ${i * 1000}`,
    then: 'deny',
    reason: { en: 'no', zh: '不' },
  }));
  rules.push({
    id: 'late',
    when: 'input.amount > 1000 && input.currency == "CNY"',
    then: 'require_approval',
  });
  return rules;
}

/**
 * What a tenant's rules cost per call (ADR 041): one rule, ten rules none matching, ten with the
 * last matching, evaluated on compiled rules; and compiling 1,000 rules (issue 26's budgets:
 * ≤ 3 µs for ten rules at p50, ≤ 200 ms for 1,000 compiles). Absolute figures, never asserted.
 */
export async function ruleCosts(): Promise<void> {
  const one = [
    compileRule({ id: 'big', when: 'input.amount > 50000', then: 'deny', reason: { en: 'no', zh: '不' } }),
  ];
  const ten = tenRules().map(compileRule);
  const measure = (fn: () => unknown) => {
    for (let i = 0; i < WARMUP; i++) fn();
    const samples = new Float64Array(CALLS);
    for (let i = 0; i < CALLS; i++) {
      const t = process.hrtime.bigint();
      fn();
      samples[i] = Number(process.hrtime.bigint() - t);
    }
    return percentiles(samples);
  };
  const ordinary = facts(500);
  const late = facts(5000);
  const rows = [
    ['1 rule, not matching', measure(() => firstMatch(one, ordinary))],
    ['10 rules, none matching', measure(() => firstMatch(ten, ordinary))],
    ['10 rules, the last matching', measure(() => firstMatch(ten, late))],
  ] as const;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < 1000; i++)
    compileRule({
      id: `r${i}`,
      when: `input.amount > ${i} && principal.role == "agent"`,
      then: 'require_approval',
    });
  const compileMs = Number(process.hrtime.bigint() - t0) / 1e6;
  printTable(
    `Rules (ADR 041): first match over compiled CEL rules (${CALLS.toLocaleString('en-US')} evaluations, µs)`,
    ['rules', 'p50 µs', 'p99 µs', 'mean µs'],
    [
      ...rows.map(([name, p]) => [name, p.p50, p.p99, p.mean]),
      ['compiling 1,000 rules (ms, once)', compileMs, '', ''],
    ],
  );
}
