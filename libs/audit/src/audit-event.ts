import type { AuditEventType } from '@toolgate/contract';

// Events of the trail (call events carry a call id; admin events do not) are the REST contract's.
export { AUDIT_EVENT_TYPES } from '@toolgate/contract';
export type { AuditEventType } from '@toolgate/contract';

/** Events that end a call; each `started` gets exactly one of them. */
export const CLOSING_EVENTS: ReadonlySet<AuditEventType> = new Set([
  'finished',
  'not_executed',
  'interrupted',
]);

/** The chain of events that belong to no tenant (platform keys, platform-wide changes). */
export { PLATFORM_TENANT } from '@toolgate/database';

/** Who acted. */
export interface AuditActor {
  readonly type: 'api_key' | 'user' | 'system';
  readonly id: string;
}

/** The bounded record of a tool's output: a summary, its full size and SHA-256. */
export interface OutputSummary {
  /** The model projection (toModelOutput) as text, when the tool has one. */
  readonly text?: string;
  /** The output as JSON, cut to 1 KiB. */
  readonly json?: string;
  readonly truncated: boolean;
  readonly bytes: number;
  readonly sha256: string;
}

/** The hash the first event of every chain links to. */
export const GENESIS_HASH = '0'.repeat(64);
