import { describe, expect, it } from 'vitest';
import { Redactor } from './redactor.js';
import { VALUE_PATTERNS } from './value-patterns.js';

/** 1 MiB of text: 1,048,576 characters. */
const MIB = 1024 * 1024;
/** What one MiB may cost: the redactor runs on the event loop, on every audited call. */
const BUDGET_MS = 100;
/** Timed runs per case; the best is asserted, since a shared machine preempts any single run. */
const RUNS = 5;
const WARM_UP_LENGTH = 64 * 1024;

const redactor = new Redactor({ mode: 'mask', patterns: [...VALUE_PATTERNS] }, Buffer.from('perf'));

/** `unit` repeated to exactly `length` characters. */
function fill(unit: string, length = MIB): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

/** Best and worst wall-clock milliseconds of `RUNS` runs, after a warm-up on a slice. */
function timed(warmUp: () => unknown, run: () => unknown): { best: number; worst: number } {
  warmUp();
  let best = Infinity;
  let worst = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    run();
    const ms = performance.now() - started;
    best = Math.min(best, ms);
    worst = Math.max(worst, ms);
  }
  return { best, worst };
}

function report(name: string, { best, worst }: { best: number; worst: number }): void {
  console.log(`redaction ${name}: ${best.toFixed(1)} ms/MiB (best of ${RUNS}; worst ${worst.toFixed(1)})`);
}

// Each pattern's worst case for a backtracking matcher, and the densest outputs for this one.
// Built per test, so no case runs with the others' megabytes on the heap.
const TEXTS: readonly (readonly [string, () => string])[] = [
  ['letters only', () => fill('a')],
  ['a@a@a@…', () => fill('a@')],
  ['a.a.a.…', () => fill('a.')],
  ['@ then letters', () => `@${fill('b', MIB - 1)}`],
  ['letters then @', () => `${fill('a', MIB - 1)}@`],
  ['x@y.y.y.…', () => `x@${fill('y.', MIB - 2)}`],
  ['one digit run', () => fill('1')],
  ['digit groups 1 1 1 …', () => fill('1 ')],
  ['digit groups 1-1-1-…', () => fill('1-')],
  ['digit groups 4 4 4 … (card prefixes)', () => fill('4 ')],
  ['full-width digits', () => fill('１')],
  ['full-width digit groups', () => fill('１ ')],
  ['ID-shaped digit groups', () => fill('1 1 0 1 0 5 1 9 4 9 1 2 3 1 0 0 2 X ')],
  ['mobiles, every one masked', () => fill('13812345678 ')],
  ['cards, every one masked', () => fill('4111 1111 1111 1111 ')],
  ['IDs, every one masked', () => fill('11010519491231002X ')],
  ['e-mails, every one masked', () => fill('a@b.co ')],
];

/** `n` keys that all mask to `138****5678`, and `n` mobiles as JSON numbers. */
function structured(n: number): { keys: Record<string, number>; numbers: number[] } {
  const keys: Record<string, number> = {};
  for (let i = 0; i < n; i++) keys[`138${String(i).padStart(4, '0')}5678`] = i;
  return { keys, numbers: Array.from({ length: n }, (_, i) => 13_800_000_000 + i) };
}

describe('redaction cost per MiB of adversarial input', () => {
  it.each(TEXTS)('redacts %s in under 100 ms', (name, build) => {
    const text = build();
    const slice = text.slice(0, WARM_UP_LENGTH);
    const ms = timed(
      () => redactor.redactText(slice),
      () => redactor.redactText(text),
    );
    report(name, ms);
    expect(ms.best).toBeLessThan(BUDGET_MS);
  });

  // Objects cost what building a copy costs, so these assert the shape (linear), not a budget.
  it('redacts colliding keys and numeric values in linear time', () => {
    const small = structured(2_500);
    const large = structured(10_000);
    for (const kind of ['keys', 'numbers'] as const) {
      const warmUp = () => redactor.redact(small[kind]);
      const smallMs = timed(warmUp, () => redactor.redact(small[kind])).best;
      const largeMs = timed(warmUp, () => redactor.redact(large[kind])).best;
      console.log(`redaction ${kind}: 2,500 in ${smallMs.toFixed(1)} ms, 10,000 in ${largeMs.toFixed(1)} ms`);
      // Four times the input: about four times the time; quadratic work would take sixteen.
      expect(largeMs).toBeLessThan(8 * smallMs + 5);
    }
  });
});
