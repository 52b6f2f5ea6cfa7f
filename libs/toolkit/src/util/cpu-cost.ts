/**
 * Cost measures for specs that hold code to a complexity claim (linear time, no ReDoS) without an
 * absolute budget: a spec compares the cost of a hostile input with the cost of a plain one of the
 * same size, measured the same way in the same process and minute, so the machine's speed cancels
 * out. Exported through `@toolgate/toolkit/testing` only.
 */

/** CPU milliseconds (user + system, every thread of this process) since `since`. */
function cpuMsSince(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** Runs of {@link cpuCostMs} when the caller gives none: the least of five is what is compared. */
export const COST_RUNS = 5;

/**
 * What each of `runs` costs in process CPU time, in milliseconds: the least of `rounds` rounds
 * after one untimed warm-up round, the functions taking turns within a round. CPU time, not wall
 * time: while another process holds the core this one is not charged. Taking turns: what the
 * machine does meanwhile (a neighbour's cache pressure, the clock speed) falls on every function
 * alike, so their ratios hold even when the absolute costs move. The least of several: a
 * collection or a cold cache adds to a run, nothing subtracts.
 *
 * @example
 * const [plain, hostile] = cpuCostsMs([() => redactText(words), () => redactText(adversarial)]);
 * expect(hostile).toBeLessThanOrEqual(10 * plain);
 */
export function cpuCostsMs(runs: readonly (() => unknown)[], rounds = COST_RUNS): number[] {
  for (const run of runs) run();
  const best = runs.map(() => Infinity);
  for (let round = 0; round < rounds; round++) {
    runs.forEach((run, i) => {
      const before = process.cpuUsage();
      run();
      best[i] = Math.min(best[i]!, cpuMsSince(before));
    });
  }
  return best;
}

/** {@link cpuCostsMs} of one function. */
export function cpuCostMs(run: () => unknown, rounds = COST_RUNS): number {
  return cpuCostsMs([run], rounds)[0]!;
}

/** Costs of one input at three sizes, and what the largest cost over the smallest. */
export interface Growth {
  /** Cost at n, 2n and 4n characters (or items), in CPU milliseconds. */
  readonly costsMs: readonly [number, number, number];
  /** cost(4n) / cost(n): about 4 for linear work, 16 for quadratic. */
  readonly ratio: number;
}

/**
 * The CPU cost of `read(make(size))` at `n`, `2n` and `4n`. A linear reader's cost grows about 4×
 * from n to 4n, a quadratic one's 16×: a spec asserts `ratio` below a bound between the two
 * ({@link LINEAR_GROWTH_LIMIT}); the three sizes take turns ({@link cpuCostsMs}), so it holds on a
 * machine whose load changes while they run.
 */
export function growth<T>(
  make: (size: number) => T,
  read: (input: T) => unknown,
  n: number,
  runs = COST_RUNS,
): Growth {
  const inputs = [n, 2 * n, 4 * n].map(make);
  const measure = (): Growth => {
    const costsMs = cpuCostsMs(
      inputs.map((input) => () => read(input)),
      runs,
    ) as [number, number, number];
    return { costsMs, ratio: timesAsDear(costsMs[2], costsMs[0]) };
  };
  // Noise only ever adds cost (a collection, a neighbour in the same worker charged to this
  // process): a ratio over the bound is measured again, and the least of three attempts stands.
  // Quadratic work stays about 16× every time; one noisy attempt no longer fails a linear reader.
  let best = measure();
  for (let attempt = 1; attempt < GROWTH_ATTEMPTS && best.ratio > LINEAR_GROWTH_LIMIT; attempt++) {
    const again = measure();
    if (again.ratio < best.ratio) best = again;
  }
  return best;
}

/** How many times {@link growth} measures at most before a ratio over the bound stands. */
export const GROWTH_ATTEMPTS = 3;

/**
 * How many times `costMs` is `baseMs`, with {@link MIN_MEASURABLE_MS} as the least divisor: a
 * reader that only looks at a bounded prefix costs microseconds, and a ratio of two such figures
 * is the clock's noise.
 */
export function timesAsDear(costMs: number, baseMs: number): number {
  return costMs / Math.max(baseMs, MIN_MEASURABLE_MS);
}

/**
 * The least cost a ratio is taken over: below a tenth of a millisecond the clock's resolution and
 * a single cache miss decide the figure, not the code.
 */
export const MIN_MEASURABLE_MS = 0.1;

/**
 * The bound on cost(4n) / cost(n): 2.5 times linear (4×), well under quadratic (16×). Generous on
 * purpose: building a masked copy of a few MiB meets more garbage collection than a quarter of it
 * does (the redactor's densest outputs grow 5–6.5× from 256 kB to 1 MiB on the 2-core VM, a
 * quadratic scanner 16× and more), and a fixed cost per call makes small inputs relatively dear.
 */
export const LINEAR_GROWTH_LIMIT = 10;

/**
 * {@link cpuCostsMs} of a plain and a hostile run, taken again (up to {@link GROWTH_ATTEMPTS}
 * times) while the hostile one costs more than `bound` times the plain one; the attempt with the
 * least ratio stands. Noise only adds cost, so a neighbour in the same worker cannot fail a linear
 * reader, while a super-linear one stays over the bound on every attempt.
 */
export function leastRatioCostsMs(
  plain: () => unknown,
  hostile: () => unknown,
  bound: number,
): [plainMs: number, hostileMs: number] {
  let best = cpuCostsMs([plain, hostile]) as [number, number];
  for (let attempt = 1; attempt < GROWTH_ATTEMPTS && best[1] > bound * best[0]; attempt++) {
    const again = cpuCostsMs([plain, hostile]) as [number, number];
    if (again[1] / again[0] < best[1] / best[0]) best = again;
  }
  return best;
}
