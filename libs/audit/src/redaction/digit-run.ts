import { CHECK_X } from './digit-checks.js';

const SPACE = 0x20;
const HYPHEN = 0x2d;
const FULL_WIDTH_ZERO = 0xff10;

/** Luhn's doubling of each digit, with the tens folded in. */
const DOUBLED = [0, 2, 4, 6, 8, 1, 3, 5, 7, 9];

/**
 * Digits held at once. A megabyte of digits passes through this window instead of being copied
 * whole: memory stays bounded, and no call allocates.
 */
const WINDOW_DIGITS = 16 * 1024;

/** The value of an ASCII or full-width digit, else -1. */
export function digitValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= FULL_WIDTH_ZERO && code <= FULL_WIDTH_ZERO + 9) return code - FULL_WIDTH_ZERO;
  return -1;
}

/** `X` or `x`, ASCII or full-width: the resident ID check character 10. */
export function isCheckX(code: number): boolean {
  return code === 0x58 || code === 0x78 || code === 0xff38 || code === 0xff58;
}

/** One character class, no quantifier: each position is tested once, natively. */
const ANY_DIGIT = /[0-9\uff10-\uff19]/g;

/**
 * The index of the first digit at or after `from`, or `text.length`. Most text has few digits;
 * the regex engine skips the rest far faster than a loop of `charCodeAt` does.
 */
export function indexOfDigit(text: string, from: number): number {
  ANY_DIGIT.lastIndex = from;
  return ANY_DIGIT.exec(text)?.index ?? text.length;
}

function isSeparator(code: number): boolean {
  return code === SPACE || code === HYPHEN;
}

/**
 * A run of digit groups joined by single spaces or hyphens (`138 1234 5678`), read through a
 * window without the separators: `digits[k]` and where it stands in the text; `groupAt[k]` is 1
 * where a group starts (and at the run's end once `done`); Luhn prefix sums make a card check O(1).
 */
export class DigitRun {
  readonly digits = new Uint8Array(WINDOW_DIGITS);
  readonly position = new Int32Array(WINDOW_DIGITS);
  readonly groupAt = new Uint8Array(WINDOW_DIGITS + 1);
  /** Digit sums up to `k`, doubling the even (`luhnEven`) or the odd indexes. */
  readonly luhnEven = new Int32Array(WINDOW_DIGITS + 1);
  readonly luhnOdd = new Int32Array(WINDOW_DIGITS + 1);
  /** Digits in the window. */
  length = 0;
  /** The text index of the run's first digit. */
  start = 0;
  /** Whether the whole run has been read; then `end` is the text index just past it. */
  done = false;
  end = 0;
  /** The text index to read next. */
  private next = 0;

  /** Starts reading the run that begins at `start` (a digit). */
  begin(text: string, start: number): void {
    this.length = 0;
    this.start = this.next = start;
    this.done = false;
    this.groupAt[0] = 1;
    this.luhnEven[0] = this.luhnOdd[0] = 0;
    this.fill(text);
  }

  /**
   * Reads on until the window is full or the run ends. A separator joins only when a digit
   * follows; an `X` ends the run, since it can only end an ID.
   */
  fill(text: string): void {
    const { digits, position, groupAt, luhnEven, luhnOdd } = this;
    let k = this.length;
    let i = this.next;
    let ended = false;
    for (; i < text.length && k < WINDOW_DIGITS; i++) {
      const code = text.charCodeAt(i);
      const v = digitValue(code);
      if (v >= 0) {
        digits[k] = v;
        position[k] = i;
        luhnEven[k + 1] = luhnEven[k] + (k & 1 ? v : DOUBLED[v]);
        luhnOdd[k + 1] = luhnOdd[k] + (k & 1 ? DOUBLED[v] : v);
        groupAt[++k] = 0;
      } else if (isCheckX(code)) {
        digits[k] = CHECK_X;
        position[k++] = i++;
        ended = true;
        break;
      } else if (isSeparator(code) && i + 1 < text.length && digitValue(text.charCodeAt(i + 1)) >= 0) {
        groupAt[k] = 1;
      } else {
        ended = true;
        break;
      }
    }
    this.length = k;
    this.next = i;
    if (ended || i >= text.length) this.finish(i);
  }

  private finish(end: number): void {
    this.groupAt[this.length] = 1;
    this.done = true;
    this.end = end;
  }

  /**
   * Drops the digits before `at` to make room, keeping an even number so the Luhn sums keep
   * their parity; answers how many were dropped.
   */
  shift(at: number): number {
    const from = at - (at & 1);
    if (!from) return 0;
    this.digits.copyWithin(0, from, this.length);
    this.position.copyWithin(0, from, this.length);
    this.groupAt.copyWithin(0, from, this.length + 1);
    this.luhnEven.copyWithin(0, from, this.length + 1);
    this.luhnOdd.copyWithin(0, from, this.length + 1);
    this.length -= from;
    // Only differences of the sums matter: rebase them so they never grow past what a window holds.
    const even = this.luhnEven[0];
    const odd = this.luhnOdd[0];
    for (let k = 0; k <= this.length; k++) {
      this.luhnEven[k] -= even;
      this.luhnOdd[k] -= odd;
    }
    return from;
  }

  /** Luhn over `digits[at..at+length)`: the digits doubled are those of the end's parity. */
  passesLuhn(at: number, length: number): boolean {
    const end = at + length;
    const sums = end & 1 ? this.luhnOdd : this.luhnEven;
    return (sums[end] - sums[at]) % 10 === 0;
  }
}
