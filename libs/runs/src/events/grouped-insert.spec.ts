import { describe, expect, it } from 'vitest';
import { GroupedInsert } from './grouped-insert.js';

describe('GroupedInsert', () => {
  it('puts rows added in the same tick, or while a statement runs, into one statement each, in order', async () => {
    const statements: number[][] = [];
    let release: () => void = () => undefined;
    const inserts = new GroupedInsert<number>(async (rows) => {
      statements.push(rows);
      if (statements.length === 1) await new Promise<void>((r) => (release = r));
    });
    const first = [inserts.add([1, 2]), inserts.add([3])];
    await new Promise((r) => setImmediate(r));
    const second = [inserts.add([4]), inserts.add([5, 6])];
    release();
    await Promise.all([...first, ...second]);
    expect(statements).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
  });

  it('fails every caller of a failed statement, and goes on with the next', async () => {
    let calls = 0;
    const inserts = new GroupedInsert<string>(async () => {
      if (calls++ === 0) throw new Error('duplicate');
    });
    const results = await Promise.allSettled([inserts.add(['a']), inserts.add(['b'])]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await expect(inserts.add(['c'])).resolves.toBeUndefined();
  });

  it('keeps a statement to at most 64 rows (a batch larger than that goes alone)', async () => {
    const sizes: number[] = [];
    const inserts = new GroupedInsert<number>(async (rows) => void sizes.push(rows.length));
    await Promise.all([
      inserts.add(Array.from({ length: 40 }, (_, i) => i)),
      inserts.add(Array.from({ length: 40 }, (_, i) => i)),
      inserts.add(Array.from({ length: 70 }, (_, i) => i)),
    ]);
    expect(sizes).toEqual([40, 40, 70]);
  });
});
