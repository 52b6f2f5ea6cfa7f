import type { Sidecar } from '../chain/audit-chain.repository.js';

/** Two sidecars as one. */
export function bothSidecars(a: Sidecar | undefined, b: Sidecar | undefined): Sidecar | undefined {
  if (!a) return b;
  if (!b) return a;
  return (dialect) => [...a(dialect), ...b(dialect)];
}
