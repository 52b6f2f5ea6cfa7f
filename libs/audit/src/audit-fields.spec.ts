import { describe, expect, it } from 'vitest';
import { AUDIT_FIELD_ENTRIES, draftEvent } from './audit-fields.js';

const actor = { type: 'user', id: 'u1' } as const;
const occurredAt = new Date('2026-11-30T01:02:03.004Z');

describe('draftEvent', () => {
  it('keeps what the writer states and makes every other field null', () => {
    const d = draftEvent({
      tenantId: 'acme',
      event: 'key_created',
      actor,
      occurredAt,
      details: { keyId: 'k' },
    });
    expect(d).toEqual({
      ...Object.fromEntries(
        AUDIT_FIELD_ENTRIES.filter(([, f]) => f.part === 'draft').map(([name]) => [name, null]),
      ),
      tenantId: 'acme',
      event: 'key_created',
      actor,
      occurredAt,
      details: { keyId: 'k' },
    });
  });

  it('turns undefined into null and keeps falsy values that are not', () => {
    const d = draftEvent({
      tenantId: 't',
      event: 'finished',
      actor,
      occurredAt,
      callId: undefined,
      durationMs: 0,
      input: false,
    });
    expect(d).toMatchObject({ callId: null, durationMs: 0, input: false });
  });

  it('copies only the fields of a draft', () => {
    const extra = {
      tenantId: 't',
      event: 'started',
      actor,
      occurredAt,
      seq: 9,
      hash: 'h',
      approver: { id: 'x' },
    } as const;
    expect(Object.keys(draftEvent(extra))).not.toContain('seq');
    expect(Object.keys(draftEvent(extra))).not.toContain('approver');
  });
});

describe('AUDIT_FIELDS', () => {
  it('gives every column to one field only', () => {
    const columns = AUDIT_FIELD_ENTRIES.flatMap(([, f]) => f.columns);
    expect(new Set(columns).size).toBe(columns.length);
  });
});
