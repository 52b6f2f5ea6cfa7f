import { describe, expect, it } from 'vitest';
import { andThen } from './and-then.js';

const double = (n: number): number => n * 2;
const plus = (n: number, m: number): number => n + m;

describe('andThen', () => {
  it('answers a plain value at once when the value and the step are synchronous', () => {
    expect(andThen(2, double)).toBe(4);
    expect(andThen(2, plus, 3)).toBe(5);
  });

  it('answers a promise from the first step that returns one, and chains after it', async () => {
    const later = andThen(Promise.resolve(2), plus, 3);
    expect(later).toBeInstanceOf(Promise);
    await expect(later).resolves.toBe(5);
    const stepReturnsPromise = andThen(2, (n) => Promise.resolve(n * 10));
    expect(stepReturnsPromise).toBeInstanceOf(Promise);
    await expect(andThen(stepReturnsPromise, double)).resolves.toBe(40);
  });

  it('throws a synchronous step’s failure synchronously, and rejects after a promise', async () => {
    const fail = (): number => {
      throw new Error('step failed');
    };
    expect(() => andThen(1, fail)).toThrow('step failed');
    await expect(andThen(Promise.resolve(1), fail)).rejects.toThrow('step failed');
    await expect(andThen(Promise.reject(new Error('before')), double)).rejects.toThrow('before');
  });
});
