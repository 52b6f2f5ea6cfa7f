import { Spans } from './sensitive-match.js';

const DOT = 0x2e;
/** The shortest top-level domain counted (`.cn`). */
const MIN_TLD_LETTERS = 2;

function isAsciiLetter(code: number): boolean {
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x7a;
}

function isAsciiDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** `A-Za-z0-9._%+-` */
function isLocalChar(code: number): boolean {
  return (
    isAsciiLetter(code) ||
    isAsciiDigit(code) ||
    code === DOT ||
    code === 0x5f ||
    code === 0x25 ||
    code === 0x2b ||
    code === 0x2d
  );
}

/** `A-Za-z0-9.-` */
function isDomainChar(code: number): boolean {
  return isAsciiLetter(code) || isAsciiDigit(code) || code === DOT || code === 0x2d;
}

/** The first character of the local part before the `@` at `at`, not reaching below `floor`. */
function localStart(text: string, at: number, floor: number): number {
  let i = at;
  while (i > floor && isLocalChar(text.charCodeAt(i - 1))) i--;
  return i;
}

/**
 * Where the domain after the `@` at `at` ends: after the last `.` + two or more letters that has
 * at least one domain character before it; -1 when there is none. Reads each character once.
 */
function domainEnd(text: string, at: number): number {
  let end = -1;
  let i = at + 1;
  while (i < text.length && isDomainChar(text.charCodeAt(i))) {
    if (text.charCodeAt(i) !== DOT || i === at + 1) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < text.length && isAsciiLetter(text.charCodeAt(j))) j++;
    if (j - i - 1 >= MIN_TLD_LETTERS) end = j;
    i = j;
  }
  return end;
}

/**
 * The e-mail addresses in `text`, left to right, not overlapping: what
 * `/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g` finds, without its backtracking. The scan
 * goes outward from each `@`; neither side may cross another `@`, so every character is read at
 * most twice, whatever the input (`a@a@a@…`, `aaaa…@`, `@bbbb…`, `x@y.y.y.y…`).
 */
export function findEmails(text: string): Spans {
  const out = new Spans();
  let floor = 0;
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', Math.max(at + 1, floor))) {
    const start = localStart(text, at, floor);
    if (start === at) continue;
    const end = domainEnd(text, at);
    if (end === -1) continue;
    out.add('email', start, end);
    floor = end;
  }
  return out;
}
