/** How `waitFor` polls. */
export interface WaitForOptions {
  /**
   * Give up after this long. Default 30 000 ms: a hang guard, not a speed claim (issue 27), so a
   * busy machine is never a failure; a check that succeeds returns at once.
   */
  readonly timeoutMs?: number;
  /** Pause between checks. Default 25 ms. */
  readonly intervalMs?: number;
  /** What is awaited, for the failure message. Default: the check's source text. */
  readonly what?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Polls `check` until it returns a truthy value (which it answers), instead of sleeping a fixed
 * time and hoping: a fast machine does not wait for nothing, a loaded one is given until
 * `timeoutMs`. A check that throws counts as "not yet"; its last error is in the failure message.
 * @example
 * await waitFor(() => probe.started > before, { what: 'the tool to start' });
 * const run = await waitFor(async () => { const r = await getRun(id); return r.status === 'completed' && r; });
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  options: WaitForOptions = {},
): Promise<Exclude<T, false | 0 | '' | null | undefined>> {
  const { timeoutMs = 30_000, intervalMs = 25 } = options;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  let lastError: unknown;
  for (;;) {
    try {
      last = await check();
      lastError = undefined;
      if (last) return last as Exclude<T, false | 0 | '' | null | undefined>;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      const what = options.what ?? check.toString().replace(/\s+/g, ' ');
      const seen =
        lastError === undefined
          ? `last value ${describe(last)}`
          : `last error ${lastError instanceof Error ? lastError.message : String(lastError)}`;
      throw new Error(`waitFor: gave up after ${timeoutMs} ms waiting for ${what} (${seen})`);
    }
    await sleep(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
  }
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 300) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Waits, if needed, until the current UTC minute has at least `ms` left, so that a test counting
 * calls against a per-minute quota (fixed windows on the epoch minute) runs inside one window.
 * A boundary inside the test would reset the counter and let through calls it expects refused.
 */
export async function waitForMinuteRoom(ms: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  // Past the boundary by a little, so that the clock of a second process agrees it has turned.
  if (left < ms) await sleep(left + 100);
}
