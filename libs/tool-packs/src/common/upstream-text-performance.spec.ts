import { cleanErrorMessage } from '@toolgate/toolkit';
import { cpuCostsMs, growth, LINEAR_GROWTH_LIMIT, timesAsDear } from '@toolgate/toolkit/testing';
import { describe, expect, it } from 'vitest';
import { describeErrorBody } from './json-http-client.js';
import { redact } from './redaction.js';

// An upstream's error body and a thrown message are read on the event loop. No hostile text may
// cost more than an ordinary one of the same size by more than a constant, and none may grow
// faster than linearly (most of these readers look at a bounded prefix: their cost stays flat).
// Asserted in process CPU time against the same process and minute, so the machine's speed
// cancels out; the absolute figures are printed, and by `npm run bench -- --only latency`.

/** 1 MiB of text: 1,048,576 characters. */
const MIB = 1024 * 1024;
/** What a hostile MiB may cost over an ordinary MiB for the same reader (a blow-up: thousands). */
const MAX_OVER_PLAIN = 10;

function fill(unit: string, length = MIB): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

const SECRETS = ['tok-3f9a-very-secret', 'pa55-word-secret'];

/** An ordinary HTML error page and an ordinary error message, repeated to the size measured. */
const PLAIN_HTML =
  '<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>The upstream did not answer.</p></body></html>\n';
const PLAIN_MESSAGE =
  'connect ECONNREFUSED 10.0.0.5:443 while calling https://api.example.com/v1/orders?id=1 (bearer abc); ';

const lt = (n = MIB) => fill('<', n);
const aDotsScheme = (n = MIB) => `${fill('a.', n - 3)}://`;
const htmlRedact = (text: string) => redact(describeErrorBody(text).message!, SECRETS);

// The worst case of each pattern these functions used to run over the whole text, with the
// ordinary text of the same reader it is compared with.
const CASES: readonly (readonly [string, (n?: number) => string, (text: string) => unknown, string])[] = [
  ['describeErrorBody <<<<…', lt, describeErrorBody, PLAIN_HTML],
  ['describeErrorBody <a<a<a…', (n) => fill('<a', n), describeErrorBody, PLAIN_HTML],
  ['describeErrorBody <><><>…', (n) => fill('<>', n), describeErrorBody, PLAIN_HTML],
  ['cleanErrorMessage a.a.a.…://', aDotsScheme, cleanErrorMessage, PLAIN_MESSAGE],
  ['cleanErrorMessage a://a://…', (n) => fill('a://', n), cleanErrorMessage, PLAIN_MESSAGE],
  ['cleanErrorMessage ?a?a?a…', (n) => fill('?a', n), cleanErrorMessage, PLAIN_MESSAGE],
  ['cleanErrorMessage bearer bearer …', (n) => fill('bearer ', n), cleanErrorMessage, PLAIN_MESSAGE],
  [
    'cleanErrorMessage spaces then at',
    (n = MIB) => `${fill(' ', n - 3)}at `,
    cleanErrorMessage,
    PLAIN_MESSAGE,
  ],
  ['cleanErrorMessage password=password=…', (n) => fill('password=', n), cleanErrorMessage, PLAIN_MESSAGE],
  ['cleanErrorMessage "token":"token":…', (n) => fill('"token":"', n), cleanErrorMessage, PLAIN_MESSAGE],
  ['cleanErrorMessage key key=key key=…', (n) => fill('key key=', n), cleanErrorMessage, PLAIN_MESSAGE],
  ['redact a.a.a.…:// with secrets', aDotsScheme, (text) => redact(text, SECRETS), PLAIN_MESSAGE],
  ['redact <<<<… as an HTML body', lt, htmlRedact, PLAIN_HTML],
];

// A hang guard, not a speed: each case runs its inputs some 30 times to compare costs, which on a
// loaded 2-core machine takes longer than Vitest's default 5 s (issue 27).
describe('upstream error text cost of adversarial input', { timeout: 60_000 }, () => {
  it.each(CASES)(
    'reads %s at most 10× the cost of ordinary text, growing linearly',
    (name, build, read, line) => {
      const plain = fill(line);
      const text = build();
      const [plainMs, hostileMs] = cpuCostsMs([() => read(plain), () => read(text)]);
      const grew = growth(build, read, MIB / 4);
      console.log(
        `upstream text ${name}: ${hostileMs.toFixed(2)} CPU ms/MiB, ordinary text ${plainMs.toFixed(2)}; ` +
          `256 kB → 512 kB → 1 MiB: ${grew.costsMs.map((ms) => ms.toFixed(2)).join(' → ')} ms`,
      );
      expect(timesAsDear(hostileMs, plainMs)).toBeLessThanOrEqual(MAX_OVER_PLAIN);
      expect(grew.ratio).toBeLessThanOrEqual(LINEAR_GROWTH_LIMIT);
    },
  );
});
