import { CHECK_X, ID_LENGTH, isIdAt, passesLuhnAt } from './digit-checks.js';
import { digitValue, isCheckX } from './digit-run.js';
import { findDigitValues } from './digit-scanner.js';
import { findEmails } from './email-scanner.js';
import { Spans, type Match, type ValuePattern } from './sensitive-match.js';

export { VALUE_PATTERNS } from './sensitive-match.js';
export type { Match, ValuePattern } from './sensitive-match.js';

const MOBILE_LENGTH = 11;
/** `86` + an 11-digit mobile. */
const PREFIXED_MOBILE_LENGTH = MOBILE_LENGTH + 2;

/** The digit values of `s` (a final `X` as 10), or undefined when it holds anything else. */
function digitValuesOf(s: string): number[] | undefined {
  const d: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    const v = digitValue(code);
    if (v >= 0) d.push(v);
    else if (i === s.length - 1 && isCheckX(code)) d.push(CHECK_X);
    else return undefined;
  }
  return d;
}

/**
 * A mainland resident identity number (GB 11643): 18 characters opening with a province code,
 * a plausible birth date `yyyymmdd` at positions 7–14, and a valid check character.
 * @example isChineseIdNumber('11010519491231002X') // true
 */
export function isChineseIdNumber(s: string): boolean {
  const d = s.length === ID_LENGTH ? digitValuesOf(s) : undefined;
  return d !== undefined && isIdAt(d, 0);
}

/** Luhn check of a digit string (bank cards); false when it holds anything but digits. */
export function passesLuhn(digits: string): boolean {
  const d = digitValuesOf(digits);
  return d !== undefined && d.length > 0 && !d.includes(CHECK_X) && passesLuhnAt(d, 0, d.length);
}

/** Whether span `i` of `a` goes before span `j` of `b`: it starts earlier, or as early and covers more. */
function precedes(a: Spans, i: number, b: Spans, j: number): boolean {
  return a.starts[i] < b.starts[j] || (a.starts[i] === b.starts[j] && a.ends[i] > b.ends[j]);
}

/**
 * Merges two ordered, non-overlapping lists into one, dropping what overlaps an earlier pick
 * (`13812345678@qq.com` is one e-mail, not a mobile and the rest).
 */
function mergeInOrder(a: Spans, b: Spans): Spans {
  if (!b.length) return a;
  if (!a.length) return b;
  const out = new Spans();
  let i = 0;
  let j = 0;
  let covered = 0;
  while (i < a.length || j < b.length) {
    const fromA = j >= b.length || (i < a.length && precedes(a, i, b, j));
    const from = fromA ? a : b;
    const k = fromA ? i++ : j++;
    if (from.starts[k] < covered) continue;
    out.add(from.patterns[k], from.starts[k], from.ends[k]);
    covered = from.ends[k];
  }
  return out;
}

/**
 * The sensitive values in a string, for the enabled patterns, as spans: ordered, never
 * overlapping. Linear in the length of `text` whatever it holds: hand-written scanners, and no
 * pattern that could backtrack (the digit search is one character class).
 */
export function findSpans(text: string, enabled: ReadonlySet<ValuePattern>): Spans {
  const wantsDigits = enabled.has('cn_id') || enabled.has('mobile') || enabled.has('bank_card');
  const digits = wantsDigits ? findDigitValues(text, enabled) : new Spans();
  const emails = enabled.has('email') ? findEmails(text) : new Spans();
  return mergeInOrder(digits, emails);
}

/** Finds the sensitive values in a string, for the enabled patterns: ordered, never overlapping. */
export function findSensitiveValues(text: string, enabled: ReadonlySet<ValuePattern>): Match[] {
  const spans = findSpans(text, enabled);
  return spans.starts.map((start, i) => {
    const end = spans.ends[i];
    return { pattern: spans.patterns[i], start, end, value: text.slice(start, end) };
  });
}

/** What a found number may hold besides its digits: separators and the `+` of `+86`. */
const SEPARATORS_AND_PLUS = /[ +-]/g;
/** A number written in ASCII. Anchored, one character class: linear, whatever was passed in. */
const ASCII_NUMBER = /^[0-9X +-]*$/;

/** ASCII digits (and `X`) of a found number, without separators, `+` or full-width forms. */
function compactDigits(value: string): string {
  if (ASCII_NUMBER.test(value)) return value.replace(SEPARATORS_AND_PLUS, '');
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const v = digitValue(code);
    if (v >= 0) out += String.fromCharCode(0x30 + v);
    else if (isCheckX(code)) out += 'X';
  }
  return out;
}

/**
 * What identifies a found value, for fingerprints: equal numbers written differently
 * (`+86 138 1234 5678`, `13812345678`, full-width digits) give the same text.
 */
export function canonicalValue(pattern: ValuePattern, value: string): string {
  if (pattern === 'email') {
    // As fingerprints were always computed, so they stay comparable with those in the trail.
    return value.replace(/[ -]/g, '');
  }
  const compact = compactDigits(value);
  return pattern === 'mobile' && compact.length === PREFIXED_MOBILE_LENGTH ? compact.slice(2) : compact;
}

/** ASCII for digit values 0–9 and the check character. */
const DIGIT_TEXT = '0123456789X';

/** The ASCII form of a digit or `X` at code `code`, else ''. */
function asciiDigit(code: number): string {
  const v = digitValue(code);
  return v >= 0 ? DIGIT_TEXT[v] : isCheckX(code) ? 'X' : '';
}

function isPlainDigit(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || code === 0x58;
}

// Masks take a few digits from either end; most values have plain ASCII digits there, so a slice
// does, and a megabyte of values costs no more than slicing them.

/** The first `n` digits of `text[start..end)`, in ASCII; reads only as far as it needs. */
function leadingDigits(text: string, start: number, end: number, n: number): string {
  let plain = 0;
  while (plain < n && start + plain < end && isPlainDigit(text.charCodeAt(start + plain))) plain++;
  if (plain === n) return text.slice(start, start + n);
  let out = '';
  for (let i = start; i < end && out.length < n; i++) out += asciiDigit(text.charCodeAt(i));
  return out;
}

/** The last `n` digits (or `X`) of `text[start..end)`, in ASCII; reads only as far as it needs. */
function trailingDigits(text: string, start: number, end: number, n: number): string {
  let plain = 0;
  while (plain < n && end - 1 - plain >= start && isPlainDigit(text.charCodeAt(end - 1 - plain))) plain++;
  if (plain === n) return text.slice(end - n, end);
  let out = '';
  for (let i = end - 1; i >= start && out.length < n; i--) out = asciiDigit(text.charCodeAt(i)) + out;
  return out;
}

/** The masked form of the value at `text[start..end)`, without cutting it out first. */
export function maskSpan(pattern: ValuePattern, text: string, start: number, end: number): string {
  switch (pattern) {
    case 'email':
      return `${text[start]}***${text.slice(text.indexOf('@', start), end)}`;
    case 'mobile': {
      // The last 11 digits: a `+86` in front is not part of the number.
      const local = trailingDigits(text, start, end, MOBILE_LENGTH);
      return `${local.slice(0, 3)}****${local.slice(-4)}`;
    }
    case 'cn_id':
      return `${leadingDigits(text, start, end, 6)}********${trailingDigits(text, start, end, 4)}`;
    case 'bank_card':
      return `${leadingDigits(text, start, end, 4)} **** **** ${trailingDigits(text, start, end, 4)}`;
  }
}

/** The masked form of a value: enough to recognise, not enough to use (`138****5678`). */
export function maskValue(pattern: ValuePattern, value: string): string {
  return maskSpan(pattern, value, 0, value.length);
}
