// Internals that specs outside the toolkit inspect (`@toolgate/toolkit/testing`); production code
// imports `@toolgate/toolkit` only.
export { markedFields } from './definition/sensitive.js';
export type { RegisteredContract } from './registry/registered-contract.js';
export { createAjv } from './schema/compiled-schema.js';
export {
  COST_RUNS,
  cpuCostMs,
  cpuCostsMs,
  growth,
  leastRatioCostsMs,
  LINEAR_GROWTH_LIMIT,
  MIN_MEASURABLE_MS,
  timesAsDear,
  type Growth,
} from './util/cpu-cost.js';
