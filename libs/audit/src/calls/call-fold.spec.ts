import { describe, expect, it } from 'vitest';
import { draftEvent, type AuditEventRecord } from '../audit-fields.js';
import { foldCallEvent, principalsOf, targetOf, termsOf, type CallRow } from './call-fold.js';

let seq = 0;
const at = (s: number) => new Date(Date.UTC(2026, 11, 1, 9, 0, s));
function event(fields: Partial<AuditEventRecord> & Pick<AuditEventRecord, 'event'>): AuditEventRecord {
  seq++;
  return {
    ...draftEvent({
      tenantId: 'acme',
      callId: 'c1',
      tool: 'restart_service',
      riskLevel: 'L3',
      agentType: 'ops_assistant',
      actor: { type: 'api_key', id: 'k-agent' },
      occurredAt: at(seq),
      ...fields,
    }),
    id: String(seq),
    seq,
    prevHash: '',
    hash: '',
  } as AuditEventRecord;
}
const fold = (events: AuditEventRecord[]) =>
  events.reduce<CallRow | undefined>((row, e) => foldCallEvent(row, e), undefined)!;

describe('the call fold', () => {
  const input = { service: 'payment-api', reason: '内存泄漏' };
  const approvalStory = () => [
    event({ event: 'approval_requested', input, details: { approvalId: 'a1' } }),
    event({
      event: 'approval_decided',
      actor: { type: 'api_key', id: 'k-approver' },
      approverId: 'k-approver',
      details: {
        decision: 'approve',
        outcome: 'approved',
        approver: { type: 'api_key', id: 'k-approver', name: '王经理' },
      },
    }),
    event({ event: 'started', input, details: { face: 'rest' } }),
    event({ event: 'finished', status: 'ok', durationMs: 12 }),
  ];

  it('folds an approved call into one row: requester, approver by name, input, outcome, times', () => {
    const row = fold(approvalStory());
    expect(row).toMatchObject({
      callId: 'c1',
      state: 'succeeded',
      status: 'ok',
      code: null,
      face: 'rest',
      requesterId: 'k-agent',
      approvers: [{ id: 'k-approver', name: '王经理', decision: 'approve' }],
      input,
      events: 4,
      durationMs: 12,
    });
    expect(row.requestedAt < row.startedAt!).toBe(true);
  });

  it('gives the same row however its events are split between batches', () => {
    const events = approvalStory();
    const whole = fold(events);
    const firstHalf = fold(events.slice(0, 2));
    const split = events.slice(2).reduce((row, e) => foldCallEvent(row, e), structuredClone(firstHalf));
    expect(split).toEqual(whole);
  });

  it('ends a denied or expired call with its code', () => {
    const denied = fold([
      event({ event: 'approval_requested', input }),
      event({
        event: 'approval_decided',
        approverId: 'k2',
        details: { decision: 'deny', outcome: 'denied' },
      }),
    ]);
    expect(denied).toMatchObject({ state: 'denied', code: 'APPROVAL_DENIED', status: 'error' });
    const expired = fold([
      event({ event: 'approval_requested', input }),
      event({
        event: 'approval_decided',
        actor: { type: 'system', id: 'approval-expiry' },
        details: { decision: 'expired', outcome: 'expired' },
      }),
    ]);
    expect(expired).toMatchObject({ state: 'expired', code: 'APPROVAL_EXPIRED', approvers: [] });
  });

  it('summarizes the target from declared key fields and indexes people and values as terms', () => {
    expect(targetOf(input, ['service'])).toBe('service=payment-api');
    expect(targetOf(input, [])).toBeNull();
    expect(targetOf({ service: { nested: true } }, ['service'])).toBeNull();
    const row = fold(approvalStory());
    expect(termsOf(row, ['service']).sort()).toEqual(
      [
        'approver:k-approver',
        'input:service=payment-api',
        'person:k-agent',
        'person:k-approver',
        'requester:k-agent',
        'target:payment-api',
      ].sort(),
    );
  });

  it('takes names from key_created and decisions', () => {
    expect(
      principalsOf(event({ event: 'key_created', callId: null, details: { keyId: 'k1', name: 'ops-bot' } })),
    ).toEqual([{ tenantId: 'acme', id: 'k1', type: 'api_key', name: 'ops-bot', seq }]);
    expect(principalsOf(event({ event: 'started' }))).toEqual([]);
  });
});
