import { CHECK_X, ID_LENGTH, isIdAt, MAX_CARD_DIGITS, MIN_CARD_DIGITS, opensId } from './digit-checks.js';
import { DigitRun, digitValue, indexOfDigit } from './digit-run.js';
import { Spans, type ValuePattern } from './sensitive-match.js';

/** No value has more digits, so no candidate reaches further than this from where it starts. */
const MAX_SPAN_DIGITS = MAX_CARD_DIGITS;
// Module-local copies of what is read at every digit group: test runners (Vitest) reach imported
// bindings through getters, which made the scan about twice as slow under test.
const MIN_CARD = MIN_CARD_DIGITS;
const ID_DIGITS = ID_LENGTH;
const X_VALUE = CHECK_X;
const MOBILE_DIGITS = 11;
/** `86` and an 11-digit mobile. */
const PREFIXED_MOBILE_DIGITS = 13;
/** Where an ID's birth year starts, counted from its first digit. */
const ID_YEAR_OFFSET = 6;
const PLUS = 0x2b;

// What a value may be, judged by its first two digits: IDs open with a province code, mobiles
// with 13–19 (or 86), cards with 3–6 (Amex/JCB, Visa, Mastercard/UnionPay, Discover/UnionPay;
// date-prefixed order numbers like `2026113012345678` would pass Luhn one time in ten).
const MOBILE = 1;
const PREFIXED_MOBILE = 2;
const CARD = 4;
const ID = 8;

/** The kinds a value opening with digits `d0 d1` may be, at `10 * d0 + d1` (`d1` is 10 at a run's end). */
const KINDS_BY_OPENING = new Uint8Array(10 * (CHECK_X + 1));
for (let d0 = 0; d0 <= 9; d0++) {
  for (let d1 = 0; d1 <= CHECK_X; d1++) {
    let kinds = opensId(d0, d1) ? ID : 0;
    if (d0 === 1 && d1 >= 3 && d1 <= 9) kinds |= MOBILE;
    if (d0 === 8 && d1 === 6) kinds |= PREFIXED_MOBILE;
    if (d0 >= 3 && d0 <= 6) kinds |= CARD;
    KINDS_BY_OPENING[d0 * 10 + d1] = kinds;
  }
}

/** One window for every scan: scans are synchronous and never nest, so sharing it is safe. */
const run = new DigitRun();

/** Letters and digits glue a number into a code (`SO13812345678`); anything else separates. */
function isAlphanumeric(code: number): boolean {
  const lower = code | 0x20;
  if ((lower >= 0x61 && lower <= 0x7a) || digitValue(code) >= 0) return true;
  return (code >= 0xff21 && code <= 0xff3a) || (code >= 0xff41 && code <= 0xff5a);
}

function wantedKinds(enabled: ReadonlySet<ValuePattern>): number {
  let kinds = enabled.has('cn_id') ? ID : 0;
  if (enabled.has('mobile')) kinds |= MOBILE | PREFIXED_MOBILE;
  if (enabled.has('bank_card')) kinds |= CARD;
  return kinds;
}

/**
 * The kinds of value that may start at digit `at`, from its first two digits and, for an ID, a
 * birth year in 19xx or 20xx with room for all 18 digits. Asked at every group start, so it only
 * looks things up.
 */
function kindsAt(at: number, wanted: number): number {
  const d = run.digits;
  const next = at + 1 < run.length ? d[at + 1] : X_VALUE;
  let kinds = KINDS_BY_OPENING[d[at] * 10 + next] & wanted;
  if (kinds & ID) {
    const year = at + ID_YEAR_OFFSET;
    const century = at + ID_DIGITS <= run.length ? d[year] * 10 + d[year + 1] : 0;
    if (century !== 19 && century !== 20) kinds &= ~ID;
  }
  return kinds;
}

/**
 * A mobile or card number must stand apart (a separator inside the run, or no letter or digit
 * next to the run); an ID carries a checksum, province and date, so `id11010519491231002X` counts.
 */
function standsApart(text: string, at: number, length: number): boolean {
  const first = run.position[at] === run.start;
  const before = !first || run.start === 0 || !isAlphanumeric(text.charCodeAt(run.start - 1));
  const last = run.done && at + length === run.length;
  const after = !last || run.end === text.length || !isAlphanumeric(text.charCodeAt(run.end));
  return before && after;
}

function isMobileAt(at: number, length: number): boolean {
  const d = run.digits;
  const local = length === PREFIXED_MOBILE_DIGITS ? at + 2 : at;
  return d[local] === 1 && d[local + 1] >= 3 && d[local + 1] <= 9 && d[at + length - 1] !== X_VALUE;
}

/** What the span of `length` digits at `at` holds, among the `kinds` its opening allows. */
function classify(text: string, at: number, length: number, kinds: number): ValuePattern | undefined {
  if (kinds & ID && length === ID_DIGITS && isIdAt(run.digits, at)) return 'cn_id';
  let pattern: ValuePattern | undefined;
  const mobileLength = kinds & MOBILE ? MOBILE_DIGITS : kinds & PREFIXED_MOBILE ? PREFIXED_MOBILE_DIGITS : 0;
  if (length === mobileLength && isMobileAt(at, length)) pattern = 'mobile';
  else if (kinds & CARD && length >= MIN_CARD && run.digits[at + length - 1] !== X_VALUE) {
    if (run.passesLuhn(at, length)) pattern = 'bank_card';
  }
  return pattern && standsApart(text, at, length) ? pattern : undefined;
}

/** Adds the value; a `+` right before `86` belongs to it. */
function add(text: string, at: number, length: number, pattern: ValuePattern, out: Spans): void {
  let start = run.position[at];
  const prefixed = pattern === 'mobile' && length === PREFIXED_MOBILE_DIGITS;
  if (prefixed && start > 0 && text.charCodeAt(start - 1) === PLUS) start--;
  out.add(pattern, start, run.position[at + length - 1] + 1);
}

/**
 * Adds the longest value that starts at digit `at` (a group start) and ends at a group end;
 * answers how many digits it covers, 0 for none. At most nine lengths, each checked in O(1)
 * (Luhn from prefix sums); an ID adds its 17-digit checksum.
 */
function takeLongestAt(text: string, at: number, kinds: number, out: Spans): number {
  const room = run.length - at;
  for (let length = Math.min(MAX_SPAN_DIGITS, room); length >= MOBILE_DIGITS; length--) {
    if (run.groupAt[at + length] !== 1) continue;
    const pattern = classify(text, at, length, kinds);
    if (pattern) {
      add(text, at, length, pattern, out);
      return length;
    }
  }
  return 0;
}

/**
 * Tries each group start, left to right; a value found skips the groups it covers. A candidate
 * never spans more than 19 digits, so the work per group start is bounded; the window is refilled
 * whenever fewer than that are left in it.
 */
function scanRun(text: string, wanted: number, out: Spans): void {
  let at = 0;
  for (;;) {
    // Below `limit`, every candidate's digits are in the window.
    const limit = run.done ? run.length : run.length - MAX_SPAN_DIGITS;
    while (at < limit) {
      if (run.groupAt[at] !== 1) {
        at++;
        continue;
      }
      const kinds = kindsAt(at, wanted);
      at += (kinds && takeLongestAt(text, at, kinds, out)) || 1;
    }
    if (run.done) return;
    at -= run.shift(at);
    run.fill(text);
  }
}

/**
 * Resident IDs, mobiles and bank cards in `text`, left to right, not overlapping. One pass over
 * the text; digits may be ASCII or full-width and separated by single spaces or hyphens.
 */
export function findDigitValues(text: string, enabled: ReadonlySet<ValuePattern>): Spans {
  const wanted = wantedKinds(enabled);
  const out = new Spans();
  if (!wanted) return out;
  for (let i = indexOfDigit(text, 0); i < text.length; i = indexOfDigit(text, run.end)) {
    run.begin(text, i);
    scanRun(text, wanted, out);
  }
  return out;
}
