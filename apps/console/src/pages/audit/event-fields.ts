/** The fields of an audit event as the API sends them, each with its label in the i18n files. */
import type { MessageKey } from '../../i18n/zh-CN';

export const EVENT_FIELDS = [
  'id',
  'tenantId',
  'seq',
  'callId',
  'event',
  'tool',
  'implementation',
  'riskLevel',
  'agentType',
  'sessionId',
  'actor',
  'initiatorId',
  'approver',
  'bindingVersion',
  'definitionHash',
  'input',
  'outputSummary',
  'status',
  'code',
  'durationMs',
  'details',
  'occurredAt',
  'prevHash',
  'hash',
] as const;
export type EventField = (typeof EVENT_FIELDS)[number];

/** The message key of a field's label (the compiler checks that every field has one). */
export const fieldLabel = (field: EventField): MessageKey => `audit.field.${field}`;

const KNOWN: ReadonlySet<string> = new Set(EVENT_FIELDS);

/** Fields the API sent that this console does not know yet (shown under their own name). */
export const unknownFields = (event: object) => Object.entries(event).filter(([k]) => !KNOWN.has(k));

/** A principal id field as text (the type may say `unknown` for fields it does not list). */
export const idOf = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
