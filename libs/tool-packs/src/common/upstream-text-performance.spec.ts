import { cleanErrorMessage } from '@toolgate/toolkit';
import { describe, expect, it } from 'vitest';
import { describeErrorBody } from './json-http-client.js';
import { redact } from './redaction.js';

/** 1 MiB of text: 1,048,576 characters. */
const MIB = 1024 * 1024;
/** What one MiB of an upstream's error body or a thrown message may cost on the event loop. */
const BUDGET_MS = 100;
/** Timed runs per case; the best is asserted, since a shared machine preempts any single run. */
const RUNS = 5;

function fill(unit: string, length = MIB): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

/** Best and worst wall-clock milliseconds of `RUNS` runs, after one warm-up run. */
function timed(run: () => unknown): { best: number; worst: number } {
  run();
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

const SECRETS = ['tok-3f9a-very-secret', 'pa55-word-secret'];

const LT = fill('<');
const A_DOTS_SCHEME = `${fill('a.', MIB - 3)}://`;

// The worst case of each pattern these functions used to run over the whole text.
const CASES: readonly (readonly [string, string, (text: string) => unknown])[] = [
  ['describeErrorBody <<<<…', LT, describeErrorBody],
  ['describeErrorBody <a<a<a…', fill('<a'), describeErrorBody],
  ['describeErrorBody <><><>…', fill('<>'), describeErrorBody],
  ['cleanErrorMessage a.a.a.…://', A_DOTS_SCHEME, cleanErrorMessage],
  ['cleanErrorMessage a://a://…', fill('a://'), cleanErrorMessage],
  ['cleanErrorMessage ?a?a?a…', fill('?a'), cleanErrorMessage],
  ['cleanErrorMessage bearer bearer …', fill('bearer '), cleanErrorMessage],
  ['cleanErrorMessage spaces then at', `${fill(' ', MIB - 3)}at `, cleanErrorMessage],
  ['cleanErrorMessage password=password=…', fill('password='), cleanErrorMessage],
  ['cleanErrorMessage "token":"token":…', fill('"token":"'), cleanErrorMessage],
  ['cleanErrorMessage key key=key key=…', fill('key key='), cleanErrorMessage],
  ['redact a.a.a.…:// with secrets', A_DOTS_SCHEME, (text) => redact(text, SECRETS)],
  ['redact <<<<… as an HTML body', LT, (text) => redact(describeErrorBody(text).message!, SECRETS)],
];

describe('upstream error text cost per MiB of adversarial input', () => {
  it.each(CASES)('reads %s in under 100 ms', (name, text, read) => {
    const { best, worst } = timed(() => read(text));
    console.log(
      `upstream text ${name}: ${best.toFixed(2)} ms/MiB (best of ${RUNS}; worst ${worst.toFixed(2)})`,
    );
    expect(best).toBeLessThan(BUDGET_MS);
  });
});
