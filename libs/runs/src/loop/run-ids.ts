import { uuidv7 } from '@toolgate/toolkit';

/** A new run id: `run_` and a UUIDv7 without dashes (time-ordered, unique everywhere). */
export const newRunId = (): string => `run_${uuidv7().replace(/-/g, '')}`;

/** A new session id, for a run that starts a conversation. */
export const newSessionId = (): string => `ses_${uuidv7().replace(/-/g, '')}`;

/**
 * The id of the `index`-th tool call of step `step` of a run: derived, not random, so that a run
 * taken over by another gateway calls an interrupted tool again under the same idempotency
 * identity (the upstream deduplicates it).
 */
export const runCallId = (runId: string, step: number, index: number): string => `${runId}.${step}.${index}`;

/**
 * The governed call id of an attempt of a run's call: the call id itself first, `<callId>.r<n>`
 * for the n-th (a re-run after a takeover is a call of its own in the audit trail and call records).
 */
export const attemptCallId = (call: { readonly callId: string; readonly attempt: number }): string =>
  call.attempt > 1 ? `${call.callId}.r${call.attempt}` : call.callId;

/** Call statuses that are final: the call has its envelope (a parked call is decided). */
export const FINAL_CALL_STATUSES: ReadonlySet<string> = new Set([
  'succeeded',
  'failed',
  'denied',
  'expired',
  'interrupted',
]);
