import { describe, expect, it } from 'vitest';
import type { McpTaskEntity } from './mcp-task.entity.js';
import { LOST_ENVELOPE, taskStateOf, type CallSnapshot } from './task-state.js';

const T0 = new Date('2026-12-01T10:00:00.000Z');
const LOST_MS = 300_000;
const row = (patch: Partial<McpTaskEntity> = {}): McpTaskEntity =>
  Object.assign(
    {
      tenantId: 'acme',
      taskId: '019ad1c0-0000-7000-8000-000000000001',
      principalId: 'key_1',
      agentType: 'ops_assistant',
      tool: 'restart_service',
      status: 'working',
      result: null,
      ttlMs: 90_000_000,
      createdAt: T0,
      updatedAt: T0,
      expiresAt: new Date(T0.getTime() + 90_000_000),
    } satisfies McpTaskEntity,
    patch,
  );
const call = (patch: Partial<CallSnapshot>): CallSnapshot => ({
  status: 'pending_approval',
  envelope: null,
  approvalId: 'apr_1',
  updatedAt: new Date(T0.getTime() + 5),
  ...patch,
});
const soon = new Date(T0.getTime() + 1_000);

describe('taskStateOf', () => {
  it('reads a call waiting for a person as working (not input_required: the approver is not the requestor)', () => {
    const s = taskStateOf(row(), call({}), soon, LOST_MS);
    expect(s).toMatchObject({ status: 'working', statusMessage: 'Waiting for approval apr_1' });
    expect(s.outcome).toBeUndefined();
  });

  it('keeps an approved call working until it ends', () => {
    for (const status of ['queued', 'running'] as const)
      expect(taskStateOf(row(), call({ status }), soon, LOST_MS).status).toBe('working');
  });

  it('completes with the envelope of a call that succeeded', () => {
    const envelope = { status: 'ok', data: { restarted: true } };
    expect(taskStateOf(row(), call({ status: 'succeeded', envelope }), soon, LOST_MS)).toMatchObject({
      status: 'completed',
      outcome: { kind: 'envelope', envelope },
    });
  });

  it('fails with the denied, expired or failed envelope (a tool result with isError is failed, per the spec)', () => {
    for (const [status, code] of [
      ['denied', 'APPROVAL_DENIED'],
      ['expired', 'APPROVAL_EXPIRED'],
      ['failed', 'UPSTREAM_ERROR'],
      ['interrupted', 'INTERRUPTED'],
    ] as const) {
      const envelope = { error: 'x', code, suggestedAction: 'y' };
      expect(taskStateOf(row(), call({ status, envelope }), soon, LOST_MS)).toMatchObject({
        status: 'failed',
        outcome: { kind: 'envelope', envelope: { code } },
      });
    }
  });

  it('answers the stored result of a call that did not park, by its isError', () => {
    const ok = { content: [{ type: 'text', text: '{}' }], structuredContent: {} };
    expect(taskStateOf(row({ status: 'settled', result: ok }), null, soon, LOST_MS)).toMatchObject({
      status: 'completed',
      outcome: { kind: 'result', result: ok },
    });
    const bad = { ...ok, isError: true };
    expect(taskStateOf(row({ status: 'settled', result: bad }), null, soon, LOST_MS).status).toBe('failed');
  });

  it('stays cancelled whatever the call did afterwards, giving the call record envelope when there is one', () => {
    const envelope = { error: 'denied', code: 'APPROVAL_DENIED', suggestedAction: '-' };
    expect(
      taskStateOf(row({ status: 'cancelled' }), call({ status: 'denied', envelope }), soon, LOST_MS),
    ).toMatchObject({ status: 'cancelled', outcome: { kind: 'envelope', envelope } });
    expect(taskStateOf(row({ status: 'cancelled' }), null, soon, LOST_MS)).toMatchObject({
      status: 'cancelled',
      outcome: { kind: 'none' },
    });
  });

  it('is working while the call leaves no trace, and failed (INTERRUPTED) once that lasts past lostAfterMs', () => {
    expect(taskStateOf(row(), null, soon, LOST_MS).status).toBe('working');
    const late = new Date(T0.getTime() + LOST_MS + 1);
    expect(taskStateOf(row(), null, late, LOST_MS)).toMatchObject({
      status: 'failed',
      outcome: { kind: 'envelope', envelope: { code: LOST_ENVELOPE.code } },
    });
  });
});
