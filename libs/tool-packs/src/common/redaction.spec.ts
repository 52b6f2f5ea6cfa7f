import { cleanErrorMessage } from '@toolgate/toolkit';
import { describe, expect, it } from 'vitest';
import { MAX_UPSTREAM_MESSAGE_LENGTH, redact, secretFormsOf } from './redaction.js';

describe('cleanErrorMessage', () => {
  it.each([
    [
      'a URL with credentials and a query',
      'GET https://user:pw@host:8443/a/b?token=x failed',
      'GET [url] failed',
    ],
    ['a URL in parentheses', '(see http://docs.example.com/errors/42).', '(see [url]).'],
    ['a URL in quotes', 'fetch "ftp://files.example.com/x" refused', 'fetch "[url]" refused'],
    ['an upper-case scheme', 'HTTPS://Example.COM/X down', '[url] down'],
    ['a scheme glued to a word', 'url=http://x/y', 'url=[url]'],
    ['a query without its URL', 'GET /x?token=abc&user=zhang failed', 'GET /x?*** failed'],
    ['a lone secret parameter', 'tail &token=abc&user=zhang', 'tail &token=***&user=zhang'],
    ['a bearer token', 'rejected Bearer abcdef123456', 'rejected Bearer ***'],
    ['a stack', 'boom\n    at Object.<anonymous> (/x.js:1:1)\n    at run (/y.js:2:2)', 'boom'],
    ['a question that is no query', 'why? because = no', 'why? because = no'],
    ['a :// without a scheme', 'odd :// thing', 'odd :// thing'],
  ])('cleans %s', (_name, message, cleaned) => {
    expect(cleanErrorMessage(message)).toBe(cleaned);
  });

  it('bounds the result and drops a word the input cut may have halved', () => {
    const out = cleanErrorMessage(`${'word '.repeat(1_000)}Bearer abcdefghijkl`, 50);
    expect(out).toBe(`${'word '.repeat(9)}word…`);
    // The input cut (4 × 500) falls two characters into the token: they must not show.
    expect(cleanErrorMessage(`${' '.repeat(1_990)} Bearer abcdefghijkl`, 500)).toBe('Bearer');
  });
});

describe('redact (upstream messages)', () => {
  it('masks known secrets, URLs and queries, and keeps the words', () => {
    const secrets = secretFormsOf(['Bearer tok-3f9a-very-secret', 'pa55-word']);
    expect(
      redact('denied Bearer tok-3f9a-very-secret for ?token=x&u=y at http://h/p pa55-word', secrets),
    ).toBe('denied *** for ?*** at [url] ***');
  });

  it('never leaves part of a secret that straddles the cut', () => {
    const secret = 'SECRET-ABCDEFGHIJ';
    const message = `${' '.repeat(MAX_UPSTREAM_MESSAGE_LENGTH * 4 + 3)}${secret} tail`;
    expect(redact(message, [secret])).not.toContain('SEC');
  });
});
