/** `RunsModule.forRoot` options. */
export interface RunsOptions {
  /** How long a driving gateway's lease lasts without renewal; another gateway takes over after. */
  readonly leaseMs: number;
  /** How often the poller resumes decided runs and takes over stale leases. */
  readonly pollMs: number;
}

export const DEFAULT_RUNS_OPTIONS: RunsOptions = { leaseMs: 30_000, pollMs: 2_000 };

export const RUNS_OPTIONS = Symbol('RUNS_OPTIONS');
