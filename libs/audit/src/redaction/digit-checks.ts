/**
 * Checks on digit sequences held as arrays of digit values (0–9, and `CHECK_X` for a resident
 * ID's `X`). Arrays, not strings, so the scanner can test every candidate span of a run without
 * building a substring for each.
 */

/** The value that stands for the check character `X` (GB 11643 uses 10 there). */
export const CHECK_X = 10;

/** A mainland resident identity number has 18 characters. */
export const ID_LENGTH = 18;

/** The fewest digits a bank card number (ISO/IEC 7812) has. */
export const MIN_CARD_DIGITS = 13;
/** The most digits a bank card number (ISO/IEC 7812) has. */
export const MAX_CARD_DIGITS = 19;

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
/** The check character for each weighted sum mod 11 (`10X98765432`). */
const ID_CHECK = [1, 0, CHECK_X, 9, 8, 7, 6, 5, 4, 3, 2];

/** Province-level codes (GB/T 2260) that open a resident ID. */
const PROVINCE_CODES = [
  11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46, 50, 51, 52, 53, 54, 61,
  62, 63, 64, 65, 71, 81, 82,
];

/** 1 at `10 * d0 + d1` when those two digits are a province code. */
const IS_PROVINCE = new Uint8Array(10 * (CHECK_X + 1));
for (const code of PROVINCE_CODES) IS_PROVINCE[code] = 1;

/** Whether digit values `d0 d1` (`d1` may be 10, for none) are a province code. */
export function opensId(d0: number, d1: number): boolean {
  return IS_PROVINCE[d0 * 10 + d1] === 1;
}

// Wide enough for anyone alive, narrow enough that most order numbers and timestamps fail;
// the scanner relies on every year starting 19 or 20.
const MIN_BIRTH_YEAR = 1900;
const MAX_BIRTH_YEAR = 2099;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function numberAt(d: ArrayLike<number>, at: number, length: number): number {
  let n = 0;
  for (let i = at; i < at + length; i++) n = n * 10 + d[i];
  return n;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Whether `d[at..at+8)` is a real calendar date `yyyymmdd` in the plausible birth years. */
function isBirthDateAt(d: ArrayLike<number>, at: number): boolean {
  for (let i = at; i < at + 8; i++) if (d[i] > 9) return false;
  const year = numberAt(d, at, 4);
  const month = numberAt(d, at + 4, 2);
  const day = numberAt(d, at + 6, 2);
  if (year < MIN_BIRTH_YEAR || year > MAX_BIRTH_YEAR || month < 1 || month > 12 || day < 1) return false;
  const days = month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1];
  return day <= days;
}

/**
 * Whether `d[at..at+18)` is a resident ID: 17 digits opening with a province code and holding a
 * plausible birth date at positions 7–14, then the GB 11643 check character.
 */
export function isIdAt(d: ArrayLike<number>, at: number): boolean {
  if (d.length < at + ID_LENGTH) return false;
  // Cheapest refusals first: most digit runs fail on the province or the date.
  if (!opensId(d[at], d[at + 1]) || !isBirthDateAt(d, at + 6)) return false;
  let sum = 0;
  for (let i = 0; i < ID_LENGTH - 1; i++) {
    if (d[at + i] > 9) return false;
    sum += d[at + i] * ID_WEIGHTS[i];
  }
  return ID_CHECK[sum % 11] === d[at + ID_LENGTH - 1];
}

/** Whether the Luhn check holds over `d[at..at+length)` (all plain digits). */
export function passesLuhnAt(d: ArrayLike<number>, at: number, length: number): boolean {
  let sum = 0;
  let double = false;
  for (let i = at + length - 1; i >= at; i--) {
    let v = d[i];
    if (double) {
      v *= 2;
      if (v > 9) v -= 9;
    }
    sum += v;
    double = !double;
  }
  return sum % 10 === 0;
}
