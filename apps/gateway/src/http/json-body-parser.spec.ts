import { describe, expect, it } from 'vitest';
import { InputRejectedError } from './input-rejected.error.js';
import { parseJsonBody } from './json-body-parser.js';

const refusal = (body: Buffer) => {
  try {
    parseJsonBody(body);
  } catch (err) {
    expect(err).toBeInstanceOf(InputRejectedError);
    return (err as InputRejectedError).issues[0];
  }
  throw new Error('expected a refusal');
};

describe('parseJsonBody', () => {
  it('parses valid UTF-8 JSON, with or without a byte order mark', () => {
    expect(parseJsonBody(Buffer.from('{"input":{"text":"审批 ✓"}}'))).toEqual({ input: { text: '审批 ✓' } });
    expect(parseJsonBody(Buffer.from('\uFEFF[1,2]'))).toEqual([1, 2]);
    expect(parseJsonBody(Buffer.from('42'))).toBe(42);
  });

  it.each([
    ['an empty body', Buffer.alloc(0), /empty/],
    [
      'a lone continuation byte',
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0x80, 0x22, 0x7d]),
      /UTF-8/,
    ],
    [
      'a truncated sequence',
      Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xe5, 0xae]), Buffer.from('"}')]),
      /UTF-8/,
    ],
    [
      'an encoded surrogate',
      Buffer.concat([Buffer.from('"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"')]),
      /UTF-8/,
    ],
    [
      'an overlong encoding',
      Buffer.concat([Buffer.from('"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"')]),
      /UTF-8/,
    ],
    ['an escaped lone surrogate', Buffer.from('{"comment":"\\ud800"}'), /lone UTF-16 surrogate/],
    [
      'an escaped lone low surrogate in a key',
      Buffer.from('{"a":[{"\\uDC00x":1}]}'),
      /lone UTF-16 surrogate/,
    ],
    ['broken JSON', Buffer.from('{"input": {'), /not valid JSON/],
    ['a duplicate key', Buffer.from('{"input":{"a":1,"a":2}}'), /duplicate key 'a'/],
    ['__proto__', Buffer.from('{"__proto__":{"x":1}}'), /__proto__/],
    [
      'nesting past MAX_BODY_DEPTH',
      Buffer.from(`${'['.repeat(200)}${']'.repeat(200)}`),
      /nested deeper than 128/,
    ],
    ['constructor.prototype', Buffer.from('{"constructor":{"prototype":{"x":1}}}'), /constructor\.prototype/],
  ])('refuses %s', (_name, body, message) => {
    expect(refusal(body)).toMatchObject({ kind: 'other', message: expect.stringMatching(message) });
  });

  it('takes escaped surrogate pairs, and names where a lone one is', () => {
    expect(parseJsonBody(Buffer.from('{"a":"\\ud83d\\ude00","b":"\\\\ud800"}'))).toEqual({
      a: '😀',
      b: '\\ud800',
    });
    expect(refusal(Buffer.from('{"input":{"items":["ok","x\\udbff"]}}')).path).toEqual(['input', 'items', 1]);
  });

  it('names where a duplicate key is', () => {
    expect(refusal(Buffer.from('{"input":{"items":[{"sku":"a","sku":"b"}]}}')).path).toEqual([
      'input',
      'items',
      0,
      'sku',
    ]);
  });
});
