import { cpuCostsMs, timesAsDear } from '@toolgate/toolkit/testing';
import { describe, expect, it } from 'vitest';
import { isTraceparent, traceparentOf } from './traceparent.js';

const VALID = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('traceparent', () => {
  it('accepts the W3C example and later versions with extra fields', () => {
    expect(isTraceparent(VALID)).toBe(true);
    expect(isTraceparent('01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-future')).toBe(true);
  });

  it.each([
    ['upper-case hex', VALID.toUpperCase()],
    ['all-zero trace id', '00-00000000000000000000000000000000-00f067aa0ba902b7-01'],
    ['all-zero parent id', '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01'],
    ['version ff', 'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
    ['version 00 with a tail', `${VALID}-x`],
    ['a short trace id', '00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01'],
    ['a wrong separator', '00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
    ['not hex', '00-4bf92f3577b34da6a3ce929d0e0e47zz-00f067aa0ba902b7-01'],
    ['too long', `01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-${'a'.repeat(300)}`],
    ['not a string', 42],
  ])('refuses %s', (_name, value) => {
    expect(isTraceparent(value)).toBe(false);
  });

  it('checks a hostile 256-character value in linear time', () => {
    const hostile = `00-${'0'.repeat(252)}`;
    const valid = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const checks = (value: string) => () => {
      for (let i = 0; i < 10_000; i++) isTraceparent(value);
    };
    // Against a valid value in the same minute, in CPU time (was `< 500 ms` of wall clock).
    const [hostileMs, validMs] = cpuCostsMs([checks(hostile), checks(valid)]);
    expect(timesAsDear(hostileMs, validMs)).toBeLessThanOrEqual(10);
  });

  it('takes the first well-formed candidate', () => {
    expect(traceparentOf('garbage', undefined, VALID)).toBe(VALID);
    expect(traceparentOf(undefined, 'nope')).toBeUndefined();
  });
});
