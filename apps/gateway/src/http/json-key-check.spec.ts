import { describe, expect, it } from 'vitest';
import { cpuCostsMs } from '@toolgate/toolkit/testing';
import { findJsonKeyProblem } from './json-key-check.js';

describe('findJsonKeyProblem', () => {
  it.each([
    ['a flat object', '{"a":1,"b":2}'],
    ['an empty object and array', '{"a":{},"b":[]}'],
    ['equal keys in sibling objects', '{"a":{"x":1},"b":{"x":2}}'],
    ['equal keys in nested objects', '{"x":{"x":{"x":1}}}'],
    ['objects in an array', '[{"a":1},{"a":2},{"a":3}]'],
    ['keys that differ only in case', '{"a":1,"A":2}'],
    ['a value equal to a key', '{"a":"a","b":"a"}'],
    ['braces and quotes inside strings', '{"a":"}{\\"a\\":1,","b":"[{\\"b\\"","c":"\\\\"}'],
    ['a key ending in an escaped backslash', '{"a\\\\":1,"a":2}'],
    ['a constructor without prototype', '{"constructor":{"name":"x"}}'],
    ['a prototype key outside constructor', '{"prototype":{"a":1}}'],
    ['constructor.prototype as a string value', '{"constructor":"prototype"}'],
    ['a primitive', '"{\\"a\\":1,\\"a\\":2}"'],
    ['nesting up to the limit', '[[[[[[[[0]]]]]]]]'],
    ['whitespace everywhere', ' { "a" : 1 , "b" : [ { "a" : 1 } , { "a" : 2 } ] } '],
  ])('accepts %s', (_name, text) => {
    JSON.parse(text); // the table holds valid JSON only
    expect(findJsonKeyProblem(text, 8)).toBeUndefined();
  });

  it.each([
    ['a repeated key', '{"a":1,"a":2}', 'duplicate', 'a', ['a']],
    ['a key repeated through an escape', '{"a":1,"\\u0061":2}', 'duplicate', 'a', ['a']],
    ['an escaped quote in both keys', '{"a\\"b":1,"a\\u0022b":2}', 'duplicate', 'a"b', ['a"b']],
    ['a repeated key in a nested object', '{"input":{"s":1,"t":{},"s":2}}', 'duplicate', 's', ['input', 's']],
    [
      'a repeated key in the second array item',
      '{"items":[{"a":1},{"a":1,"a":2}]}',
      'duplicate',
      'a',
      ['items', 1, 'a'],
    ],
    ['a repeated key after nested values', '{"a":{"b":[1,{"c":2}]},"x":"}","a":3}', 'duplicate', 'a', ['a']],
    ['a repeated top-level key in an array', '[[],[0,{"k":0,"k":1}]]', 'duplicate', 'k', [1, 1, 'k']],
    ['__proto__', '{"input":{"__proto__":{"admin":true}}}', 'prototype', '__proto__', ['input', '__proto__']],
    ['an escaped __proto__', '{"\\u005f_proto__":{}}', 'prototype', '__proto__', ['__proto__']],
    [
      'constructor.prototype',
      '{"a":[{"constructor":{"prototype":{}}}]}',
      'prototype',
      'prototype',
      ['a', 0, 'constructor', 'prototype'],
    ],
    ['nesting past the limit', '{"a":[1,{"b":[[[[[[0]]]]]]}]}', 'depth', 0, ['a', 1, 'b', 0, 0, 0, 0, 0]],
  ])('refuses %s', (_name, text, kind, key, path) => {
    JSON.parse(text);
    expect(findJsonKeyProblem(text, 8)).toEqual({ kind, key, path });
  });

  it('never throws or loops on text that is not JSON', () => {
    for (const text of ['{"a', '{"a\\', '}}]]', '{"\\u00zz":1,"\\u00zz":2}', '"', '{,,,"a":1,,"a":2']) {
      expect(() => findJsonKeyProblem(text, 8)).not.toThrow();
    }
  });

  // Four scans of 150,000 items and two more to compare with: seconds on a loaded machine (hang guard).
  it('stays linear on large bodies of many keys, deep nesting and escapes', { timeout: 60_000 }, () => {
    const n = 150_000;
    const bodies = [
      `{${Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',')}}`,
      `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`,
      `[${'{"a":1,"b":"\\\\\\"x"},'.repeat(n)}{}]`,
      `{"s":"${'\\\\'.repeat(n)}","t":"${'\\"'.repeat(n)}"}`,
    ];
    for (const text of bodies) {
      const started = performance.now();
      expect(findJsonKeyProblem(text, Infinity)).toBeUndefined();
      // A hang guard only (a quadratic scan of these takes minutes); the early exits below are
      // compared with these full scans, not with a clock.
      expect(performance.now() - started).toBeLessThan(10_000);
    }
    const duplicates = `{${'"a":1,'.repeat(n)}"b":1}`;
    expect(findJsonKeyProblem(duplicates, 8)).toMatchObject({ kind: 'duplicate', key: 'a' });
    expect(findJsonKeyProblem(bodies[1]!, 128)).toMatchObject({ kind: 'depth' });
    // Found early, not after a full scan: a small part of what scanning a body of the same size
    // costs, in CPU time in the same minute (was `< 200 ms` of wall clock).
    const [fullMs, earlyMs] = cpuCostsMs(
      [
        () => findJsonKeyProblem(bodies[0]!, Infinity),
        () => {
          findJsonKeyProblem(duplicates, 8);
          findJsonKeyProblem(bodies[1]!, 128);
        },
      ],
      1,
    );
    expect(earlyMs).toBeLessThanOrEqual(fullMs / 4);
  });
});
