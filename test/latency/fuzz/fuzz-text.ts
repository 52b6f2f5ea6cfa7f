import fc from 'fast-check';

/**
 * The WTF-8 bytes of a JS string: UTF-8, except that a lone surrogate becomes its own three bytes
 * (ED A0 80...) instead of U+FFFD. That is how a lone surrogate reaches a server percent-encoded.
 */
export function wtf8(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (cp >= 0xd800 && cp <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      cp = 0x10000 + ((cp - 0xd800) << 10) + (next - 0xdc00);
      i++;
    }
    if (cp < 0x80) bytes.push(cp);
    else if (cp < 0x800) bytes.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else bytes.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  return Buffer.from(bytes);
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Percent-encodes every byte of `text` (WTF-8) but the unreserved characters. */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of wtf8(text)) {
    const ch = String.fromCharCode(byte);
    out += UNRESERVED.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** `text` as a byte string (one char per UTF-8 byte): how non-ASCII goes raw into a header or a path. */
export function asBytes(text: string): string {
  return wtf8(text).toString('latin1');
}

/** Strings in many scripts, with the characters that break naive handling. */
export const UNICODE_SAMPLES = [
  '日本語テキスト',
  '中文服务名',
  '😀🚀👩‍👩‍👧',
  'שלום עולם',
  'مرحبا',
  '\u202egnp.exe',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83d',
  '\ufeffbom',
  'Ω≈ç√∫',
  '\u200b\u200d',
  'ᄀᄀᄀ각ᆨᆨ',
];

/** Path segments that have broken routers, file servers and query builders (already encoded). */
export const HOSTILE_SEGMENTS = [
  '..',
  '.',
  '%2e%2e',
  '%2E%2E',
  '%2e%2e%2f',
  '..%2f..%2f..%2fetc%2fpasswd',
  '..%5c..%5cwindows',
  '%2e%2e%2f%2e%2e%2fpackage.json',
  '%00',
  'a%00b',
  '%2500',
  percentEncode("' OR 1=1 --"),
  percentEncode('"; DROP TABLE api_keys; --'),
  percentEncode("acme' --"),
  "acme'",
  '%',
  '%zz',
  '%c3%28',
  '%ff%fe',
  '%ed%a0%80',
  '%ed%bf%bf',
  '%c0%af',
  '%F0%9F%98%80',
  '%E2%80%AE%E2%80%AD',
  '%EF%BB%BF',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  '%20',
  '+',
  '*',
  ';',
  ',',
  '~',
  '%24%7Bjndi%3Aldap%3A%2F%2Fx%7D',
  '%7B%7B7*7%7D%7D',
  '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
  '0',
  '-1',
  '1e309',
  'NaN',
  '9'.repeat(40),
  'a'.repeat(64),
  'a'.repeat(65),
  'a'.repeat(100),
  'a'.repeat(101),
  'a'.repeat(129),
  'ACME',
  'acme%20',
  'acme%0a',
  'Ops_Assistant',
  'ops-assistant',
  'ops_assistant%00',
  'key_',
  'apr_',
  'tg_',
];

/** Printable ASCII, safe in any header value. */
export const printableAscii = (maxLength: number) =>
  fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength });

/** A path segment (or query value), percent-encoded or raw, from benign to very hostile. */
export function hostileSegment(): fc.Arbitrary<string> {
  // Built once: generators are made per request in places, and this one holds 40 kB of constants.
  return (hostile ??= buildHostileSegment());
}

let hostile: fc.Arbitrary<string> | undefined;

function buildHostileSegment(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }).map(percentEncode) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 16 }).map(percentEncode) },
    { weight: 2, arbitrary: fc.constantFrom(...UNICODE_SAMPLES).map(percentEncode) },
    // Raw bytes on the request line: UTF-8 unencoded, dot segments and slashes as they are.
    {
      weight: 1,
      arbitrary: fc.constantFrom('日本', 'é', '😀', '../', '..\\', '/', '//', 'a/../b').map(asBytes),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'a'.repeat(10_000),
        percentEncode('中'.repeat(1_200)),
        `${'%2e%2e%2f'.repeat(400)}etc%2fpasswd`,
      ),
    },
  );
}
