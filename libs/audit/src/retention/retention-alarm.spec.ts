import { describe, expect, it } from 'vitest';
import { AuditAlarms, type AuditAlarm } from '../alarms/audit-alarms.js';
import type { AuditOptions } from '../audit.options.js';
import { RetentionJob } from './retention-job.js';

describe('RetentionJob alarms', () => {
  it('raises audit_retention_failed for a tenant whose archive fails, and none for one that archives', async () => {
    const alarms = new AuditAlarms();
    const heard: AuditAlarm[] = [];
    alarms.subscribe((a) => heard.push(a));
    const writer = {
      archiveTenant: async (tenantId: string) => {
        if (tenantId === 'acme') throw new Error('archive store unreachable');
        return { files: 0, events: 0, through: 0 };
      },
    };
    const policy = { effective: async () => ({ days: 180, hold: null }), onHold: async () => false };
    const checkpoints = { chainTenants: async () => ['acme', 'globex'] };
    const job = new RetentionJob(
      writer as never,
      { unavailable: () => null } as never,
      policy as never,
      { boundary: async () => null } as never,
      checkpoints as never,
      {} as never,
      {} as never,
      {} as never,
      { location: 'test', list: async () => [] } as never,
      { retention: { archiveIntervalMs: 0, wholeDays: true } } as unknown as AuditOptions,
      undefined,
      alarms,
    );
    const runs = await job.run();
    expect(runs.map((r) => [r.tenantId, r.problem ?? null])).toEqual([
      ['acme', 'archive store unreachable'],
      ['globex', null],
    ]);
    expect(heard).toEqual([
      expect.objectContaining({
        kind: 'audit_retention_failed',
        tenantId: 'acme',
        reason: 'archive store unreachable',
      }),
    ]);
  });
});
