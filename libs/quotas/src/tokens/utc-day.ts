/**
 * The day a token is counted in: the UTC calendar day of the moment its model turn ended, as
 * `YYYY-MM-DD`. Every gateway counts the same day whatever its time zone; the day's budget is
 * fresh again at 00:00 UTC.
 */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** 00:00 UTC after `at`: when the day's tokens start again from nothing. */
export function nextUtcMidnight(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
}

/** Whole seconds from `at` to the next UTC midnight, at least 1 (a `Retry-After` value). */
export function secondsToNextUtcDay(at: Date): number {
  return Math.max(1, Math.ceil((nextUtcMidnight(at).getTime() - at.getTime()) / 1000));
}
