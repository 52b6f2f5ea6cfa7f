import { createHash } from 'node:crypto';
import type { AuditEventRecord } from '../../audit-fields.js';
import { toApiEvent, type ApiAuditEvent } from '../../chain/event-mapping.js';

/** Version of the record's shape, first in every record. */
export const SIEM_RECORD_VERSION = 1;

/** The fields that may be large (tool input, particulars, output summary): cut first. */
const BULKY_FIELDS = ['input', 'details', 'outputSummary'] as const;

/**
 * What a sink forwards of one event: the event as `GET /v1/audit/events` shows it (every chain
 * field: tenant, seq, prevHash, hash, event, occurredAt, actor, tool, status, code, ...), after `v`.
 * Receivers deduplicate on (tenantId, seq).
 */
export type SiemRecord = { readonly v: number } & ApiAuditEvent;

/** What stands in for a field cut from a record that was too long. */
export interface TruncatedField {
  readonly truncated: true;
  readonly bytes: number;
  readonly sha256: string;
}

/**
 * The record of an event, at most `maxBytes` of JSON: beyond it, the bulky fields are replaced by
 * their size and SHA-256 (the chain keeps them whole; the digest lets a receiver match them).
 */
export function siemRecord(event: AuditEventRecord, maxBytes: number): SiemRecord {
  const record = { v: SIEM_RECORD_VERSION, ...toApiEvent(event) } as Record<string, unknown>;
  if (Buffer.byteLength(JSON.stringify(record)) <= maxBytes) return record as SiemRecord;
  for (const field of BULKY_FIELDS) {
    const value = record[field];
    if (value === null || value === undefined) continue;
    const text = JSON.stringify(value);
    record[field] = {
      truncated: true,
      bytes: Buffer.byteLength(text),
      sha256: createHash('sha256').update(text).digest('hex'),
    } satisfies TruncatedField;
  }
  return record as SiemRecord;
}
