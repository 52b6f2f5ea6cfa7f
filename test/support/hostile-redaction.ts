/**
 * Request bodies of about 900 kB (UTF-8) per string, under the 1 MiB body limit with the JSON
 * around them: the worst cases of the audit redactor's scanners, and ordinary text of the same
 * sizes. Shared by test/latency/redaction-dos.latency-spec.ts (which compares the two) and the
 * benchmark's latency section (which reports the absolute figures).
 */
export const HOSTILE_TEXT_BYTES = 900 * 1024;

/** The phone in front of every text: proves the redactor read the string where it landed. */
export const HOSTILE_TEXT_PHONE = '13812345678';

function fill(unit: string, length = HOSTILE_TEXT_BYTES): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

/**
 * The worst cases of the old patterns (the e-mail one was quadratic) and of the new scanner
 * (digit groups), each behind a phone number.
 */
export function adversarialTexts(): string[] {
  const size = HOSTILE_TEXT_BYTES;
  return [
    fill('a'),
    fill('a@'),
    `@${fill('b', size - 1)}`,
    fill('a.'),
    `x@${fill('y.', size - 2)}`,
    fill('1 '),
    fill('4-'),
    fill('１', size / 3), // three UTF-8 bytes each
  ].map((text) => `${HOSTILE_TEXT_PHONE} ${text}`);
}

/** The same byte sizes as `texts` in words: what any large body costs, whatever it holds. */
export function plainTextsLike(texts: readonly string[]): string[] {
  return texts.map((text) => fill('hello world ', Buffer.byteLength(text)));
}
