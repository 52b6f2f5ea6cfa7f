import type { ToolCallEvent } from '@toolgate/toolkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpsTestBed } from '../common/testing/ops-test-bed.js';
import type { ToolTestBed } from '../common/testing/tool-test-bed.js';
import { OpsSimulator } from './ops-simulator.js';

const reason = '发布 2.3.1 后内存持续上涨';
type Restarted = { data: { service: string; restarted: true; at: string; restartId: string } };

describe('restart_service', () => {
  const sim = new OpsSimulator({ slowDelayMs: 300 });
  let bed: ToolTestBed;

  beforeAll(async () => {
    bed = await createOpsTestBed(sim);
  });
  afterAll(() => bed.close());

  it('is L3 with approval on every call, a 30 s limit, the approver prompt and a label', async () => {
    const tool = bed.registry.get('restart_service')!;
    expect(tool.risk).toMatchObject({ level: 'L3', approvalRequired: true, dataDomains: ['ops.services'] });
    expect(tool.approval.mode).toBe('always');
    expect(tool.timeoutMs).toBe(30_000);
    expect(tool.approval.prompt!({ input: { service: 'payment-api', reason } })).toBe(
      '重启 payment-api？影响：全部实例滚动重启，约 10-30 秒不可用。',
    );
    const events: ToolCallEvent[] = [];
    await bed.run(
      'restart_service',
      { service: 'payment-api', reason },
      { onEvent: (e) => events.push(e), callId: 'label-call' },
    );
    expect(events[0]).toEqual({ type: 'label', phase: 'start', text: '重启 payment-api' });
  });

  it('sends the stable idempotency key upstream: the same call restarts once', async () => {
    const restartsBefore = sim.stats.restarts;
    const call = { sessionId: 'sess-1', callId: 'call-1' };
    const first = (await bed.run('restart_service', { service: 'search-api', reason }, call))
      .envelope as Restarted;
    const rerun = (await bed.run('restart_service', { service: 'search-api', reason }, call))
      .envelope as Restarted;
    expect(first.data).toMatchObject({
      service: 'search-api',
      restarted: true,
      restartId: expect.stringMatching(/^rst-\d{4}$/),
    });
    expect(new Date(first.data.at).toISOString()).toBe(first.data.at);
    expect(rerun.data).toEqual(first.data);
    expect(sim.stats.restarts - restartsBefore).toBe(1);
    expect(sim.stats.idempotencyKeys).toContain('sess-1:call-1');

    const other = (
      await bed.run(
        'restart_service',
        { service: 'search-api', reason },
        { sessionId: 'sess-1', callId: 'call-2' },
      )
    ).envelope as Restarted;
    expect(other.data.restartId).not.toBe(first.data.restartId);
    expect(sim.stats.restarts - restartsBefore).toBe(2);
  });

  it('records the reason and who asked; null when the call has no principal', async () => {
    await bed.run(
      'restart_service',
      { service: 'payment-api', reason },
      { callId: 'who-1', principal: { principalType: 'user', principalId: 'u-zhang' } },
    );
    await bed.run(
      'restart_service',
      { service: 'payment-api', reason },
      { callId: 'who-2', principal: null },
    );
    const log = sim.stats.restartLog;
    expect(log.find((r) => r.idempotencyKey === 'who-1:who-1')).toMatchObject({
      reason,
      requestedBy: 'u-zhang',
    });
    expect(log.find((r) => r.idempotencyKey === 'who-2:who-2')).toMatchObject({ requestedBy: null });
  });

  it('retries a 5xx with the same key, so the retry cannot restart twice', async () => {
    const restartsBefore = sim.stats.restarts;
    sim.failNext(1, 502);
    const r = await bed.run('restart_service', { service: 'payment-api', reason }, { callId: 'retry-1' });
    expect(r.envelope).toMatchObject({ status: 'ok' });
    expect(sim.stats.restarts - restartsBefore).toBe(1);
  });

  it('refuses a short reason and an unknown service', async () => {
    expect(
      (await bed.run('restart_service', { service: 'payment-api', reason: 'why' })).envelope,
    ).toMatchObject({ code: 'INVALID_INPUT' });
    expect((await bed.run('restart_service', { service: 'nope-api', reason })).envelope).toMatchObject({
      code: 'SERVICE_NOT_FOUND',
    });
  });

  it('waits for a slow service within its 30 s limit', async () => {
    const r = await bed.run('restart_service', { service: 'legacy-batch', reason }, { callId: 'slow-1' });
    expect(r.envelope).toMatchObject({ data: { service: 'legacy-batch', restarted: true } });
  });
});
