import { describe, expect, it } from 'vitest';
import { insertUnlessTaken } from './sql-dialect.js';

const failure = (errno: number, code: string) => Object.assign(new Error(code), { errno, code });

describe('insertUnlessTaken', () => {
  it('answers true when it inserted and false when the key was taken', async () => {
    expect(await insertUnlessTaken(async () => undefined)).toBe(true);
    expect(
      await insertUnlessTaken(async () => {
        throw failure(1062, 'ER_DUP_ENTRY');
      }),
    ).toBe(false);
  });

  it('tries an insert that lost as a deadlock again, and then sees the winner as a duplicate', async () => {
    const answers = [failure(1213, 'ER_LOCK_DEADLOCK'), failure(1062, 'ER_DUP_ENTRY')];
    let tries = 0;
    const inserted = await insertUnlessTaken(async () => {
      tries++;
      throw answers.shift();
    });
    expect({ inserted, tries }).toEqual({ inserted: false, tries: 2 });
  });

  it('passes any other failure on, and a deadlock that keeps coming after five tries', async () => {
    await expect(
      insertUnlessTaken(async () => {
        throw failure(1146, 'ER_NO_SUCH_TABLE');
      }),
    ).rejects.toThrow('ER_NO_SUCH_TABLE');
    let tries = 0;
    await expect(
      insertUnlessTaken(async () => {
        tries++;
        throw failure(1213, 'ER_LOCK_DEADLOCK');
      }),
    ).rejects.toThrow('ER_LOCK_DEADLOCK');
    expect(tries).toBe(5);
  });
});
