import { cpuCostsMs, growth, leastRatioCostsMs, LINEAR_GROWTH_LIMIT } from '@toolgate/toolkit/testing';
import { describe, expect, it } from 'vitest';
import { Redactor } from './redactor.js';
import { VALUE_PATTERNS } from './value-patterns.js';

// The redactor runs on the event loop, on every audited call: no input may cost it more than
// ordinary text of the same size by more than a constant, and none may grow faster than linearly.
// Both are asserted against the same process in the same minute, in CPU time, so that the speed
// of the machine (and whatever else runs on it) cancels out. The absolute figures (ms per MiB) are
// printed here and, beside their target, by `npm run bench -- --only latency`.

/** 1 MiB of text: 1,048,576 characters. */
const MIB = 1024 * 1024;
/**
 * What a hostile MiB may cost over a MiB of ordinary text. The densest hostile texts (every value
 * masked) cost about 3× ordinary log text; a backtracking blow-up costs hundreds of times more.
 */
const MAX_OVER_PLAIN = 10;
/** The smallest size of the growth check (n → 2n → 4n = 1 MiB). */
const GROWTH_FROM = MIB / 4;

const redactor = new Redactor({ mode: 'mask', patterns: [...VALUE_PATTERNS] }, Buffer.from('perf'));

/** `unit` repeated to exactly `length` characters. */
function fill(unit: string, length = MIB): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

/**
 * Ordinary audited text: words, an order number, a date, an amount, an e-mail and a phone in
 * every line, so every scanner does the work it does on real input.
 */
const PLAIN_LINE =
  'order 10023 shipped 2026-03-14 to Zhang Wei (zhang.wei@example.com, 138 1234 5678), 3 items, 1,299.00 CNY; ';

// Each pattern's worst case for a backtracking matcher, and the densest outputs for this one.
// Built per test, so no case runs with the others' megabytes on the heap.
const TEXTS: readonly (readonly [string, (length?: number) => string])[] = [
  ['letters only', (n) => fill('a', n)],
  ['a@a@a@…', (n) => fill('a@', n)],
  ['a.a.a.…', (n) => fill('a.', n)],
  ['@ then letters', (n = MIB) => `@${fill('b', n - 1)}`],
  ['letters then @', (n = MIB) => `${fill('a', n - 1)}@`],
  ['x@y.y.y.…', (n = MIB) => `x@${fill('y.', n - 2)}`],
  ['one digit run', (n) => fill('1', n)],
  ['digit groups 1 1 1 …', (n) => fill('1 ', n)],
  ['digit groups 1-1-1-…', (n) => fill('1-', n)],
  ['digit groups 4 4 4 … (card prefixes)', (n) => fill('4 ', n)],
  ['full-width digits', (n) => fill('１', n)],
  ['full-width digit groups', (n) => fill('１ ', n)],
  ['ID-shaped digit groups', (n) => fill('1 1 0 1 0 5 1 9 4 9 1 2 3 1 0 0 2 X ', n)],
  ['mobiles, every one masked', (n) => fill('13812345678 ', n)],
  ['cards, every one masked', (n) => fill('4111 1111 1111 1111 ', n)],
  ['IDs, every one masked', (n) => fill('11010519491231002X ', n)],
  ['e-mails, every one masked', (n) => fill('a@b.co ', n)],
];

/** `n` keys that all mask to `138****5678`, and `n` mobiles as JSON numbers. */
function structured(n: number): { keys: Record<string, number>; numbers: number[] } {
  const keys: Record<string, number> = {};
  for (let i = 0; i < n; i++) keys[`138${String(i).padStart(4, '0')}5678`] = i;
  return { keys, numbers: Array.from({ length: n }, (_, i) => 13_800_000_000 + i) };
}

// A hang guard, not a speed: each case runs its inputs some 30 times to compare costs, which on a
// loaded 2-core machine takes longer than Vitest's default 5 s (issue 27).
describe('redaction cost of adversarial input', { timeout: 60_000 }, () => {
  it.each(TEXTS)('redacts %s at most 10× the cost of ordinary text, growing linearly', (name, build) => {
    const plain = fill(PLAIN_LINE);
    const text = build();
    const [plainMs, hostileMs] = cpuCostsMs([
      () => redactor.redactText(plain),
      () => redactor.redactText(text),
    ]);
    const grew = growth(build, (t) => redactor.redactText(t), GROWTH_FROM);
    console.log(
      `redaction ${name}: ${hostileMs.toFixed(1)} CPU ms/MiB, ordinary text ${plainMs.toFixed(1)} ` +
        `(${(hostileMs / plainMs).toFixed(2)}×); 256 kB → 512 kB → 1 MiB: ` +
        `${grew.costsMs.map((ms) => ms.toFixed(1)).join(' → ')} ms (${grew.ratio.toFixed(1)}×)`,
    );
    expect(hostileMs).toBeLessThanOrEqual(MAX_OVER_PLAIN * plainMs);
    // Four times the input: about four times the cost; a quadratic scanner would take sixteen.
    expect(grew.ratio).toBeLessThanOrEqual(LINEAR_GROWTH_LIMIT);
  });

  // The name check (tools with `redactNames`) scans runs of Han characters once: names every few
  // characters, one endless run, and names that each are masked cost about what ordinary text does.
  it.each([
    ['names, every one masked', (n?: number) => fill('张三 ', n)],
    ['one run of Han characters', (n?: number) => fill('张', n)],
    ['compound surnames', (n?: number) => fill('欧阳娜娜,', n)],
  ] as const)(
    'redacts %s with the name check at most 10× the cost of ordinary text, growing linearly',
    (name, build) => {
      const plain = fill(PLAIN_LINE);
      const text = build();
      const [plainMs, hostileMs] = leastRatioCostsMs(
        () => redactor.redactText(plain, true),
        () => redactor.redactText(text, true),
        MAX_OVER_PLAIN,
      );
      const grew = growth(build, (t) => redactor.redactText(t, true), GROWTH_FROM);
      console.log(
        `redaction with names, ${name}: ${hostileMs.toFixed(1)} CPU ms/MiB, ordinary text ${plainMs.toFixed(1)} ` +
          `(${(hostileMs / plainMs).toFixed(2)}×); growth ${grew.ratio.toFixed(1)}×`,
      );
      expect(hostileMs).toBeLessThanOrEqual(MAX_OVER_PLAIN * plainMs);
      expect(grew.ratio).toBeLessThanOrEqual(LINEAR_GROWTH_LIMIT);
    },
  );

  // Objects cost what building a copy costs, so these assert the shape (linear), not a ratio.
  it.each(['keys', 'numbers'] as const)('redacts colliding %s in linear time', (kind) => {
    const grew = growth(
      (n) => structured(n)[kind],
      (value) => redactor.redact(value),
      2_500,
    );
    console.log(
      `redaction ${kind}: 2,500 → 5,000 → 10,000 in ${grew.costsMs.map((ms) => ms.toFixed(1)).join(' → ')} ` +
        `CPU ms (${grew.ratio.toFixed(1)}×)`,
    );
    expect(grew.ratio).toBeLessThanOrEqual(LINEAR_GROWTH_LIMIT);
  });
});
