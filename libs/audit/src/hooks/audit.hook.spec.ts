import type { InstanceRegistry } from '@toolgate/database';
import type { ToolCall } from '@toolgate/toolkit';
import { describe, expect, it, vi } from 'vitest';
import type { AuditOptions } from '../audit.options.js';
import type { AuditWriter } from '../chain/audit-writer.js';
import { DEFAULT_REDACTION_POLICY, Redactor } from '../redaction/redactor.js';
import type { TenantRedaction } from '../redaction/tenant-redaction.js';
import { AuditHook } from './audit.hook.js';
import type { L0AccessSwitch } from './l0-access-switch.js';

function l1Call(level = 'L1'): ToolCall {
  return {
    id: 'call-1',
    startedAt: Date.now(),
    input: { note: 'x' },
    rawInput: { note: 'x' },
    state: new Map(),
    ctx: { session: { id: 's-1' } },
    request: {
      tenant: { id: 'acme' },
      agentType: 'ops',
      principal: { principalType: 'api_key', principalId: 'key_1' },
      locale: 'en',
    },
    tool: {
      contract: { name: 'record_note', risk: { level }, sensitivePaths: [] },
      implementation: { name: 'default', definitionHash: 'h' },
      timeoutMs: 10_000,
      approval: 'never',
      bindingVersion: 1,
    },
  } as unknown as ToolCall;
}

function hookWith(
  outcome: 'written' | 'dropped',
  l0Access: boolean | Promise<boolean> = false,
  finishedBeforeAnswer = true,
) {
  const writer = { append: vi.fn(async () => [outcome]), ensure: vi.fn() };
  const redactor = new Redactor(DEFAULT_REDACTION_POLICY, Buffer.from('k'));
  const redaction = {
    redactorFor: async () => redactor,
    redactorNow: () => redactor,
  } as unknown as TenantRedaction;
  const options = { auditL0: false, writeDeadlineMs: 1_000, finishedBeforeAnswer } as AuditOptions;
  const hook = new AuditHook(
    writer as unknown as AuditWriter,
    redaction,
    { instanceId: 'gw-1' } as InstanceRegistry,
    options,
    { recordsFor: () => l0Access } as unknown as L0AccessSwitch,
  );
  return { hook, writer };
}

describe('AuditHook', () => {
  it('lets an L1 call run once its started event is written', async () => {
    const { hook } = hookWith('written');
    expect(await hook.beforeExecute(l1Call())).toBeUndefined();
  });

  it('fails closed when the store drops the started event as a duplicate', async () => {
    const { hook, writer } = hookWith('dropped');
    const stop = await hook.beforeExecute(l1Call());
    expect(stop?.envelope.code).toBe('AUDIT_UNAVAILABLE');
    // The start on record is another run's: this one closes nothing.
    expect(writer.ensure).not.toHaveBeenCalled();
  });

  it('records an L0 call as one accessed event after it ran, without a promise, and none when the tenant says not', async () => {
    const result = { envelope: { data: { up: true }, status: 'ok' }, durationMs: 3.4 } as never;
    const on = hookWith('written', true);
    const call = l1Call('L0');
    expect(on.hook.beforeExecute(call)).toBeUndefined();
    expect(on.hook.afterCall(call, result)).toBeUndefined();
    expect(on.writer.append).not.toHaveBeenCalled();
    expect(on.writer.ensure).toHaveBeenCalledTimes(1);
    const [[drafts]] = on.writer.ensure.mock.calls as unknown as [[{ event: string; status: string }[]]];
    expect(drafts).toHaveLength(1);
    expect(drafts[0]).toMatchObject({
      event: 'accessed',
      status: 'ok',
      callId: 'call-1',
      tool: 'record_note',
    });

    const off = hookWith('written', false);
    expect(off.hook.afterCall(l1Call('L0'), result)).toBeUndefined();
    expect(off.writer.ensure).not.toHaveBeenCalled();

    // A tenant not asked before: recorded once its answer comes.
    const first = hookWith('written', Promise.resolve(true));
    first.hook.afterCall(l1Call('L0'), result);
    await vi.waitFor(() => expect(first.writer.ensure).toHaveBeenCalledTimes(1));
  });

  it('waits for finished to be durable by default, and only queues it with finishedBeforeAnswer: false (ADR 043)', async () => {
    const result = {
      envelope: { data: { ok: true }, status: 'ok' },
      durationMs: 2,
      output: { ok: true },
    } as never;
    for (const durable of [true, false]) {
      const { hook, writer } = hookWith('written', false, durable);
      const call = l1Call();
      expect(await hook.beforeExecute(call)).toBeUndefined();
      await hook.afterCall(call, result);
      const events = (calls: unknown[][]) =>
        calls.map(([drafts]) => (drafts as { event: string }[])[0]!.event);
      // `started` is awaited either way: fail-closed does not move.
      expect(events(writer.append.mock.calls as unknown[][])).toEqual(
        durable ? ['started', 'finished'] : ['started'],
      );
      expect(events(writer.ensure.mock.calls as unknown[][])).toEqual(durable ? [] : ['finished']);
    }
  });
});
