import { describe, expect, it } from 'vitest';
import { jsonText, wellFormed } from './well-formed.js';

describe('wellFormed', () => {
  it('hands a clean value back as the same reference', () => {
    const clean = { a: ['x', 1, null, { b: 'emoji \ud83d\ude00' }], at: new Date(0) };
    expect(wellFormed(clean)).toBe(clean);
  });

  it('replaces lone surrogates in strings and keys with U+FFFD, leaving the original untouched', () => {
    const odd = { list: ['ok', 'lone \ud800 high', { ['k\udc00']: 'low \udfff' }], at: new Date(0) };
    const fixed = wellFormed(odd);
    expect(fixed).toEqual({ list: ['ok', 'lone \ufffd high', { 'k\ufffd': 'low \ufffd' }], at: new Date(0) });
    expect(fixed.at).toBe(odd.at);
    expect(odd.list[1]).toBe('lone \ud800 high');
  });

  it('checks a value nested far deeper than the call stack without overflowing', () => {
    let deep: unknown = 'end';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(wellFormed(deep)).toBe(deep);
  });
});

describe('jsonText', () => {
  it('writes SQL NULL for null and undefined, and JSON MariaDB accepts for the rest', () => {
    expect(jsonText(null)).toBeNull();
    expect(jsonText(undefined)).toBeNull();
    expect(jsonText({ s: 'a\ud800' })).toBe('{"s":"a\ufffd"}');
    // A literal backslash before "ud" is text, not an escape: kept as it is.
    expect(jsonText({ s: '\\ud800' })).toBe('{"s":"\\\\ud800"}');
  });
});
