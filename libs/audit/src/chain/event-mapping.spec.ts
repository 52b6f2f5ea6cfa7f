import { describe, expect, it } from 'vitest';
import { AUDIT_FIELDS, draftEvent, type AuditEventRecord } from '../audit-fields.js';
import type { AuditEventEntity } from '../entities/audit-event.entity.js';
import { propertyOf } from '../field-codecs.js';
import { EVENT_COLUMNS, eventRow } from './event-columns.js';
import { toApiEvent, toRecord } from './event-mapping.js';

const draft = draftEvent({
  tenantId: 'acme',
  event: 'finished',
  callId: 'c1',
  tool: 'read_logs',
  riskLevel: 'L1',
  actor: { type: 'api_key', id: 'k1' },
  approverId: 'u2',
  bindingVersion: 3,
  input: { q: '已记录' },
  outputSummary: { truncated: false, bytes: 2, sha256: 'ff', json: '{}' },
  status: 'ok',
  durationMs: 12,
  occurredAt: new Date('2026-11-30T01:02:03.004Z'),
  instanceId: 'gw-1',
});
const place = { seq: 7, prevHash: 'a'.repeat(64), hash: 'b'.repeat(64), dedupeKey: 'acme/c1:closed' };
const record: AuditEventRecord = {
  ...draft,
  id: '42',
  seq: place.seq,
  prevHash: place.prevHash,
  hash: place.hash,
};

/**
 * The entity TypeORM would read back from an inserted row: JSON parsed; on SQLite the time as
 * text, on MariaDB a Date and BIGINT as text.
 */
function readBack(mysql: boolean): AuditEventEntity {
  const row = eventRow(draft, place);
  const entity: Record<string, unknown> = { id: mysql ? '42' : 42 };
  EVENT_COLUMNS.forEach((column, i) => {
    const codec = Object.values(AUDIT_FIELDS).find((f) => f.columns.includes(column))!.codec;
    let value = row[i];
    if (codec === 'json' && typeof value === 'string') value = JSON.parse(value);
    if (mysql && codec === 'date') value = new Date(`${String(value).replace(' ', 'T')}Z`);
    if (mysql && column === 'seq') value = String(value);
    entity[propertyOf(column)] = value;
  });
  return entity as unknown as AuditEventEntity;
}

describe('eventRow and toRecord', () => {
  it('writes one value per column, the time as SQL DATETIME(3) text and JSON as text', () => {
    const row = eventRow(draft, place);
    expect(row).toHaveLength(EVENT_COLUMNS.length);
    expect(row[EVENT_COLUMNS.indexOf('occurred_at')]).toBe('2026-11-30 01:02:03.004');
    expect(row[EVENT_COLUMNS.indexOf('input')]).toBe('{"q":"已记录"}');
    expect(row[EVENT_COLUMNS.indexOf('details')]).toBeNull();
    expect(row[EVENT_COLUMNS.indexOf('dedupe_key')]).toBe('acme/c1:closed');
    expect(EVENT_COLUMNS).not.toContain('id');
  });

  it.each([
    ['SQLite', false],
    ['MariaDB', true],
  ])('reads back from %s the event that was written', (_db, mysql) => {
    expect(toRecord(readBack(mysql))).toEqual(record);
  });
});

describe('toApiEvent', () => {
  it('shows the approver as { id }, the time as ISO-8601, and hides the instance', () => {
    const view = toApiEvent(record);
    expect(Object.keys(view).join()).toBe(
      'id,tenantId,seq,callId,event,tool,implementation,riskLevel,agentType,sessionId,actor,initiatorId,' +
        'approver,bindingVersion,definitionHash,input,outputSummary,status,code,durationMs,details,occurredAt,' +
        'prevHash,hash',
    );
    expect(view).toMatchObject({ approver: { id: 'u2' }, occurredAt: '2026-11-30T01:02:03.004Z', seq: 7 });
  });

  it('leaves the approver out when there is none', () => {
    expect(toApiEvent({ ...record, approverId: null })).not.toHaveProperty('approver');
  });
});
