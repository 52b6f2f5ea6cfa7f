import { describe, expect, it } from 'vitest';
import { cleanErrorMessage } from './error-mapping.js';

describe('secret-looking assignments in error messages', () => {
  it.each([
    ['at the start', 'password=hunter2 rejected', 'password=*** rejected'],
    ['after a space', 'connect failed db_password=hunter2', 'connect failed db_password=***'],
    ['after a query mark', 'POST /login?password=hunter2', 'POST /login?***'],
    ['after an ampersand', 'tail &token=abc&user=zhang', 'tail &token=***&user=zhang'],
    ['in JSON', '{"error":"denied","password": "hunt\\"er2"}', '{"error":"denied","password": "***"}'],
    [
      'camelCase in JSON',
      '{"clientSecret":"s3cr3t","user":"zhang"}',
      '{"clientSecret":"***","user":"zhang"}',
    ],
    ['with a colon', 'upstream said api_key: k-123, retry', 'upstream said api_key: ***, retry'],
    ['several kinds', 'secret=a; x-api-key=b, accessToken=c', 'secret=***; x-api-key=***, accessToken=***'],
    ['a name that is no secret', 'user=zhang status: 500', 'user=zhang status: 500'],
    ['a secret word with no value', 'the token expired', 'the token expired'],
  ])('masks %s', (_case, message, cleaned) => {
    expect(cleanErrorMessage(message)).toBe(cleaned);
  });
});
