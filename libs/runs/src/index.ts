// Every export is public API of @toolgate/runs: agents that run (the loop, durable steps, parking, events).
import { CreateRuns1764600200000 } from './migrations/1764600200000-create-runs.js';
import { RunCallAttempts1764600250000 } from './migrations/1764600250000-run-call-attempts.js';
import { RunsInFlightIndex1765200000000 } from './migrations/1765200000000-runs-in-flight-index.js';
export { RunEvents, toRunEvent } from './events/run-events.js';
export { RunService } from './run.service.js';
export { RunStatsRepository } from './store/run-stats.repository.js';
export type { StartedRun } from './run.service.js';
export { RunsModule } from './runs.module.js';
export type { RunsOptions } from './runs.options.js';
export { DEFAULT_RUNS_OPTIONS } from './runs.options.js';

/** The runs lib's migrations, in order. */
export const RUNS_MIGRATIONS = [
  CreateRuns1764600200000,
  RunCallAttempts1764600250000,
  RunsInFlightIndex1765200000000,
];
