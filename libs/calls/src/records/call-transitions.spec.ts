import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { CallTransitions, type NewCallRecord } from './call-transitions.js';

const SCHEMA = `CREATE TABLE tool_calls (
  call_id varchar(64) NOT NULL, tenant_id varchar(64) NOT NULL, agent_type varchar(64), tool varchar(64) NOT NULL,
  implementation varchar(64) NOT NULL, session_id varchar(128) NOT NULL, idempotency_identity varchar(64),
  principal json NOT NULL, locale varchar(8) NOT NULL, status varchar(20) NOT NULL, input json, input_redacted json,
  input_digest varchar(64), timeout_ms int NOT NULL, approval_mode varchar(8) NOT NULL, binding_version int,
  approval_id varchar(64), envelope json, instance_id varchar(128), face varchar(8), traceparent varchar(64),
  created_at datetime(3) NOT NULL,
  decided_by json, updated_at datetime(3) NOT NULL, PRIMARY KEY (tenant_id, call_id))`;

const approver = { type: 'api_key' as const, id: 'key_b', name: 'approver' };

const record = (over: Partial<NewCallRecord> = {}): NewCallRecord => ({
  face: 'rest',
  tenantId: 'acme',
  callId: 'c1',
  agentType: 'ops',
  tool: 'restart_service',
  implementation: 'default',
  sessionId: 's1',
  idempotencyIdentity: null,
  principal: { principalType: 'api_key', principalId: 'key_a' },
  locale: 'en',
  input: { service: 'x' },
  inputRedacted: null,
  inputDigest: 'd',
  timeoutMs: 1000,
  approvalMode: 'always',
  bindingVersion: 1,
  approvalId: 'apr_1',
  instanceId: 'gw-1',
  ...over,
});

describe('CallTransitions', () => {
  let db: Database.Database;
  const run = (s: { sql: string; params: readonly unknown[] }) =>
    db.prepare(s.sql).run(...s.params).changes > 0;
  const status = (tenantId = 'acme', callId = 'c1') =>
    (
      db
        .prepare('SELECT status FROM tool_calls WHERE tenant_id = ? AND call_id = ?')
        .get(tenantId, callId) as { status: string } | undefined
    )?.status;
  const acme = { tenantId: 'acme', callId: 'c1' };

  beforeEach(() => {
    db = new Database(':memory:');
    db.exec(SCHEMA);
  });

  it('keeps a parked call raw input only until it ends: then the redacted copy, whichever way it ends', () => {
    const stored = (callId: string) =>
      db.prepare('SELECT input, input_redacted FROM tool_calls WHERE call_id = ?').get(callId) as {
        input: string | null;
        input_redacted: string | null;
      };
    const parked = (callId: string) =>
      record({ callId, input: { phone: '13812345678' }, inputRedacted: { phone: '138****5678' } });
    const ends = {
      c_ok: () => [
        CallTransitions.queue({ tenantId: 'acme', callId: 'c_ok' }, approver),
        CallTransitions.claim({ tenantId: 'acme', callId: 'c_ok' }, 'gw'),
        CallTransitions.finish({ tenantId: 'acme', callId: 'c_ok' }, 'succeeded', { status: 'ok' }),
      ],
      c_denied: () => [CallTransitions.deny({ tenantId: 'acme', callId: 'c_denied' }, {})],
      c_expired: () => [CallTransitions.expire({ tenantId: 'acme', callId: 'c_expired' }, {})],
      c_lost: () => [
        CallTransitions.queue({ tenantId: 'acme', callId: 'c_lost' }, approver),
        CallTransitions.interrupt({ tenantId: 'acme', callId: 'c_lost' }, {}),
      ],
    };
    for (const [callId, steps] of Object.entries(ends)) {
      run(CallTransitions.park(parked(callId)));
      expect(JSON.parse(stored(callId).input!)).toEqual({ phone: '13812345678' }); // what runs after approval
      for (const s of steps()) expect(run(s)).toBe(true);
      expect(JSON.parse(stored(callId).input!)).toEqual({ phone: '138****5678' });
      expect(stored(callId).input_redacted).toBeNull();
    }
  });

  it('moves a parked call through approval, one claim and one outcome', () => {
    expect(run(CallTransitions.park(record()))).toBe(true);
    expect(run(CallTransitions.claim(acme, 'gw-1'))).toBe(false); // not approved yet
    expect(run(CallTransitions.queue(acme, approver))).toBe(true);
    expect(run(CallTransitions.deny(acme, {}))).toBe(false); // already approved
    expect(run(CallTransitions.claim(acme, 'gw-1'))).toBe(true);
    expect(run(CallTransitions.claim(acme, 'gw-2'))).toBe(false); // exactly one gateway runs it
    expect(run(CallTransitions.finish(acme, 'succeeded', { status: 'ok', data: 1 }))).toBe(true);
    expect(run(CallTransitions.finish(acme, 'failed', {}))).toBe(false);
    expect(run(CallTransitions.interrupt(acme, {}))).toBe(false);
    expect(status()).toBe('succeeded');
    // The approver is named by the same statement that queued the call.
    const row = db.prepare('SELECT decided_by FROM tool_calls').get() as { decided_by: string };
    expect(JSON.parse(row.decided_by)).toEqual(approver);
  });

  it('names the denier with the denial, and no one when the platform denies', () => {
    run(CallTransitions.park(record()));
    run(CallTransitions.park(record({ callId: 'c2' })));
    expect(run(CallTransitions.deny(acme, { code: 'APPROVAL_DENIED' }, approver))).toBe(true);
    expect(run(CallTransitions.deny({ tenantId: 'acme', callId: 'c2' }, { code: 'APPROVAL_DENIED' }))).toBe(
      true,
    );
    const decided = db.prepare('SELECT call_id, decided_by FROM tool_calls ORDER BY call_id').all() as {
      call_id: string;
      decided_by: string | null;
    }[];
    expect(decided.map((r) => [r.call_id, r.decided_by && JSON.parse(r.decided_by)])).toEqual([
      ['c1', approver],
      ['c2', null],
    ]);
  });

  it('lets no transition of one tenant touch another tenant’s call with the same id', () => {
    run(CallTransitions.park(record()));
    const other = { tenantId: 'globex', callId: 'c1' };
    for (const t of [
      CallTransitions.queue(other, approver),
      CallTransitions.deny(other, {}),
      CallTransitions.expire(other, {}),
      CallTransitions.claim(other, 'gw'),
      CallTransitions.finish(other, 'succeeded', {}),
      CallTransitions.interrupt(other, {}),
    ])
      expect(run(t)).toBe(false);
    expect(run(CallTransitions.start(record({ tenantId: 'globex' }), 'sqlite'))).toBe(true);
    expect(status('acme')).toBe('pending_approval');
    expect(status('globex')).toBe('running');
  });

  it('starts a call once: a second start never overwrites the record', () => {
    expect(run(CallTransitions.start(record({ approvalId: null }), 'sqlite'))).toBe(true);
    run(CallTransitions.finish(acme, 'succeeded', {}));
    expect(
      run(
        CallTransitions.start(
          record({ principal: { principalType: 'api_key', principalId: 'key_b' } }),
          'sqlite',
        ),
      ),
    ).toBe(false);
    const row = db.prepare('SELECT status, principal FROM tool_calls').get() as {
      status: string;
      principal: string;
    };
    expect(row.status).toBe('succeeded');
    expect(JSON.parse(row.principal).principalId).toBe('key_a');
  });

  it('ends only pending calls by denial or expiry, and only running or queued ones by interruption', () => {
    run(CallTransitions.park(record()));
    expect(run(CallTransitions.interrupt(acme, {}))).toBe(false);
    expect(run(CallTransitions.expire(acme, { code: 'APPROVAL_EXPIRED' }))).toBe(true);
    expect(run(CallTransitions.deny(acme, {}))).toBe(false);
    expect(status()).toBe('expired');
  });
});
