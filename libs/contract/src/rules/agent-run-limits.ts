/**
 * Bounds and defaults of an agent type's run settings: what a tenant file, the admin API and the
 * console editor accept. Plain values (no Zod), so the console bundle shares them.
 */
export const AGENT_RUN_LIMITS = {
  /** Model turns per run. */
  maxSteps: { min: 1, max: 50, default: 8 },
  /** Wall-clock time of a run, in milliseconds. */
  deadlineMs: { min: 1_000, max: 900_000, default: 120_000 },
  /** Tool calls of one model turn run at the same time. */
  maxParallelToolCalls: { min: 1, max: 16, default: 4 },
} as const;

/** The longest system prompt an agent type may carry (characters). */
export const AGENT_INSTRUCTIONS_MAX = 20_000;

/** How many other agent types one agent type may delegate to. */
export const AGENT_SUB_AGENTS_MAX = 32;
