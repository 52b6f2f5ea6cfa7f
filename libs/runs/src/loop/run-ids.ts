import { uuidv7 } from '@toolgate/toolkit';

/** A new run id: `run_` and a UUIDv7 without dashes (time-ordered, unique everywhere). */
export const newRunId = (): string => `run_${uuidv7().replace(/-/g, '')}`;

/** A new session id, for a run that starts a conversation. */
export const newSessionId = (): string => `ses_${uuidv7().replace(/-/g, '')}`;

/**
 * The id of the `index`-th tool call of step `step` of a run: derived, not random, so that a run
 * taken over by another gateway calls an interrupted tool again under the same call id and
 * idempotency key (the upstream deduplicates it).
 */
export const runCallId = (runId: string, step: number, index: number): string => `${runId}.${step}.${index}`;
