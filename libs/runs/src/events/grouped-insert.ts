/** Most rows one grouped statement carries (event data can be a whole tool result). */
const MAX_ROWS = 64;

interface Waiting<T> {
  readonly rows: readonly T[];
  readonly resolve: () => void;
  readonly reject: (err: unknown) => void;
}

/**
 * Group commit for small inserts: rows added while a statement is under way (or in the same tick)
 * go together in the next one, up to MAX_ROWS, so many concurrent runs pay one round trip and one
 * commit instead of one each. One statement at a time; each caller learns whether its rows were
 * stored: when a grouped statement fails, every caller in it gets the error (and may retry alone).
 */
export class GroupedInsert<T> {
  private queue: Waiting<T>[] = [];
  private running = false;

  constructor(private readonly insert: (rows: T[]) => Promise<unknown>) {}

  add(rows: readonly T[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ rows, resolve, reject });
      if (!this.running) {
        this.running = true;
        // setImmediate lets rows added in the same tick join the first statement.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const group: Waiting<T>[] = [];
      let count = 0;
      while (this.queue.length && (group.length === 0 || count + this.queue[0]!.rows.length <= MAX_ROWS)) {
        const next = this.queue.shift()!;
        group.push(next);
        count += next.rows.length;
      }
      try {
        await this.insert(group.flatMap((g) => g.rows));
        for (const g of group) g.resolve();
      } catch (err) {
        for (const g of group) g.reject(err);
      }
    }
    this.running = false;
  }
}
