/** The fields of an audit event as the API sends them, each with its label in the i18n files. */
import { AUDIT_EVENT_FIELDS, type AuditEventField } from '@toolgate/contract/rules';
import type { MessageKey } from '../../i18n/zh-CN';

export type EventField = AuditEventField;

/** The message key of a field's label (the compiler checks that every field has one). */
export const fieldLabel = (field: EventField): MessageKey => `audit.field.${field}`;

const KNOWN: ReadonlySet<string> = new Set(AUDIT_EVENT_FIELDS);

/** Fields the API sent that this console does not know yet (shown under their own name). */
export const unknownFields = (event: object) => Object.entries(event).filter(([k]) => !KNOWN.has(k));

/** A principal id field as text (the type may say `unknown` for fields it does not list). */
export const idOf = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
