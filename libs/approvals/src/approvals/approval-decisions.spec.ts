import { describe, expect, it } from 'vitest';
import { ApprovalDecisions } from './approval-decisions.js';

const decision = { tenantId: 'acme', approvalId: 'apr_1', callId: 'call_1' };

describe('ApprovalDecisions', () => {
  it('tells every subscriber, until it unsubscribes', () => {
    const hub = new ApprovalDecisions();
    const a: string[] = [];
    const b: string[] = [];
    const stopA = hub.subscribe((d) => a.push(d.callId));
    hub.subscribe((d) => b.push(d.callId));
    hub.publish(decision);
    stopA();
    hub.publish({ ...decision, callId: 'call_2' });
    expect(a).toEqual(['call_1']);
    expect(b).toEqual(['call_1', 'call_2']);
  });

  it("keeps a failing subscriber's error from the others and from the approver's request", () => {
    const hub = new ApprovalDecisions();
    const seen: string[] = [];
    hub.subscribe(() => {
      throw new Error('boom');
    });
    hub.subscribe((d) => seen.push(d.callId));
    expect(() => hub.publish(decision)).not.toThrow();
    expect(seen).toEqual(['call_1']);
  });
});
