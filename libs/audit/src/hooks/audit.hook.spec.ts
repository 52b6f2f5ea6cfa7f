import type { InstanceRegistry } from '@toolgate/database';
import type { ToolCall } from '@toolgate/toolkit';
import { describe, expect, it, vi } from 'vitest';
import type { AuditOptions } from '../audit.options.js';
import type { AuditWriter } from '../chain/audit-writer.js';
import { DEFAULT_REDACTION_POLICY, Redactor } from '../redaction/redactor.js';
import type { TenantRedaction } from '../redaction/tenant-redaction.js';
import { AuditHook } from './audit.hook.js';

function l1Call(): ToolCall {
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
      contract: { name: 'record_note', risk: { level: 'L1' }, sensitivePaths: [] },
      implementation: { name: 'default', definitionHash: 'h' },
      timeoutMs: 10_000,
      approval: 'never',
      bindingVersion: 1,
    },
  } as unknown as ToolCall;
}

function hookWith(outcome: 'written' | 'dropped') {
  const writer = { append: vi.fn(async () => [outcome]), ensure: vi.fn() };
  const redaction = {
    redactorFor: async () => new Redactor(DEFAULT_REDACTION_POLICY, Buffer.from('k')),
  } as unknown as TenantRedaction;
  const options = { auditL0: false, writeDeadlineMs: 1_000 } as AuditOptions;
  const hook = new AuditHook(
    writer as unknown as AuditWriter,
    redaction,
    { instanceId: 'gw-1' } as InstanceRegistry,
    options,
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
});
