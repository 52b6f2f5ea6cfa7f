import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { requestIdOf } from './request-id.js';

const withId = (id?: string | string[]) =>
  ({ headers: { 'x-request-id': id } }) as unknown as IncomingMessage;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestIdOf', () => {
  it.each(['trace-42', 'a', 'A.b_c:d-e', '0'.repeat(128)])('keeps the client id %s', (id) => {
    expect(requestIdOf(withId(id))).toBe(id);
  });

  it.each([
    ['none', undefined],
    ['an empty one', ''],
    ['markup', '<script>alert(1)</script>'],
    ['129 characters', 'a'.repeat(129)],
    ['6 kB', 'x'.repeat(6_000)],
    ['a space', 'a b'],
    ['a line break', 'a\nb'],
    ['non-ASCII', 'é'],
    ['a repeated header', ['a', 'b']],
  ])('replaces %s with a fresh UUID', (_name, id) => {
    const generated = requestIdOf(withId(id));
    expect(generated).toMatch(UUID);
    expect(requestIdOf(withId(id))).not.toBe(generated);
  });
});
