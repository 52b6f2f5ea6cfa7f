import { errorEnvelope, ErrorCode, type ErrorEnvelope, type Locale } from '@toolgate/toolkit';
import type { AgentRunSettings } from './run-settings.js';

/** Where a run stands before its next model turn. */
export interface RunProgress {
  readonly steps: number;
  readonly tokens: number;
  readonly deadlineAt: Date;
  readonly now: Date;
}

/** The envelope of the limit a run has reached before its next model turn, or null. */
export function limitReached(
  progress: RunProgress,
  settings: Pick<AgentRunSettings, 'maxSteps' | 'deadlineMs' | 'tokenBudget'>,
  locale: Locale,
): ErrorEnvelope | null {
  if (progress.now.getTime() >= progress.deadlineAt.getTime())
    return errorEnvelope(ErrorCode.DEADLINE_EXCEEDED, locale, { deadlineMs: settings.deadlineMs });
  if (progress.steps >= settings.maxSteps)
    return errorEnvelope(ErrorCode.STEP_LIMIT, locale, { maxSteps: settings.maxSteps });
  if (settings.tokenBudget !== null && progress.tokens >= settings.tokenBudget)
    return errorEnvelope(ErrorCode.BUDGET_EXCEEDED, locale, { budget: settings.tokenBudget });
  return null;
}
