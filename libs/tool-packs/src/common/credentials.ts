import { timingSafeEqual } from 'node:crypto';

/**
 * Compares a presented credential with the expected one in constant time, so the demo simulators
 * do not teach the habit of `===` on secrets.
 */
export function sameSecret(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
