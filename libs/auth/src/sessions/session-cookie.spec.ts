import { describe, expect, it } from 'vitest';
import { readCookie, sessionIdOf } from './session-cookie.js';

describe('session cookie', () => {
  it('reads a cookie by exact name from a Cookie header', () => {
    expect(readCookie('a=1; tg_session=abc; b=2', 'tg_session')).toBe('abc');
    expect(readCookie('xtg_session=abc', 'tg_session')).toBeUndefined();
    expect(readCookie(undefined, 'tg_session')).toBeUndefined();
    expect(readCookie('tg_session', 'tg_session')).toBeUndefined();
  });

  it('reads only the __Host- spelling in Secure mode, only the plain one without, and ignores headers too long to be real', () => {
    expect(sessionIdOf('tg_session=plain; __Host-tg_session=secure', true)).toBe('secure');
    expect(sessionIdOf('tg_session=planted', true)).toBeUndefined();
    expect(sessionIdOf('tg_session=plain; __Host-tg_session=secure', false)).toBe('plain');
    expect(sessionIdOf(`tg_session=${'a'.repeat(9_000)}`, false)).toBeUndefined();
  });
});
