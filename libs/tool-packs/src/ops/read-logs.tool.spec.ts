import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpsTestBed } from '../common/testing/ops-test-bed.js';
import type { ToolTestBed } from '../common/testing/tool-test-bed.js';
import { OpsSimulator } from './ops-simulator.js';
import { summarizeLogs } from './read-logs.tool.js';

type Logs = { data: { lines: string[]; truncated: boolean } };

describe('read_logs', () => {
  const sim = new OpsSimulator({ slowDelayMs: 400 });
  let bed: ToolTestBed;

  beforeAll(async () => {
    bed = await createOpsTestBed(sim);
  });
  afterAll(() => bed.close());

  it('fills the defaults and flags truncation (120 errors in the last hour, 50 returned)', async () => {
    const r = await bed.run('read_logs', { service: 'search-api' });
    const { data } = r.envelope as Logs;
    expect(data.lines).toHaveLength(50);
    expect(data.truncated).toBe(true);
    expect(data.lines.every((l) => l.includes(' ERROR search-api '))).toBe(true);
  });

  it('asks upstream for limit + 1 lines: exactly the available number is not truncated', async () => {
    const exact = (await bed.run('read_logs', { service: 'search-api', limit: 120 })).envelope as Logs;
    expect(exact.data).toMatchObject({ truncated: false });
    expect(exact.data.lines).toHaveLength(120);
    const oneShort = (await bed.run('read_logs', { service: 'search-api', limit: 119 })).envelope as Logs;
    expect(oneShort.data.truncated).toBe(true);
    expect(oneShort.data.lines).toEqual(exact.data.lines.slice(0, 119));
  });

  it('filters by window and level', async () => {
    const payment = (await bed.run('read_logs', { service: 'payment-api' })).envelope as Logs;
    expect(payment.data).toMatchObject({ truncated: false });
    expect(payment.data.lines).toHaveLength(3);
    const warn = (await bed.run('read_logs', { service: 'payment-api', level: 'warn', window: '5m' }))
      .envelope as Logs;
    expect(warn.data.lines).toHaveLength(2); // ceil(3/12) errors + ceil(12/12) warnings
    const all = (
      await bed.run('read_logs', { service: 'search-api', level: 'all', window: '24h', limit: 200 })
    ).envelope as Logs;
    expect(all.data.truncated).toBe(true);
    expect(all.data.lines.some((l) => l.includes(' INFO '))).toBe(true);
  });

  it('gives the model a short summary: count and the first three lines', async () => {
    const r = await bed.run('read_logs', { service: 'search-api', limit: 10 });
    const lines = (r.envelope as Logs).data.lines;
    expect(r.modelOutput).toEqual({
      type: 'text',
      value: `共返回 10 行，还有更多匹配行未返回（可缩小时间窗或提高级别）。最新的 3 行：\n${lines.slice(0, 3).join('\n')}`,
    });
    expect(summarizeLogs({ lines: [], truncated: false })).toEqual({
      type: 'text',
      value: '没有匹配的日志行。',
    });
  });

  it('refuses limits outside 1..200 and unknown windows before calling upstream', async () => {
    const before = sim.stats.requests;
    for (const input of [
      { service: 'search-api', limit: 201 },
      { service: 'search-api', limit: 0 },
      { service: 'search-api', window: '7d' },
    ]) {
      expect((await bed.run('read_logs', input)).envelope).toMatchObject({ code: 'INVALID_INPUT' });
    }
    expect(sim.stats.requests).toBe(before);
  });

  it('fails an unknown service with SERVICE_NOT_FOUND', async () => {
    expect((await bed.run('read_logs', { service: 'nope-api' })).envelope).toMatchObject({
      code: 'SERVICE_NOT_FOUND',
    });
  });

  it('times out on legacy-batch', async () => {
    expect(
      (await bed.run('read_logs', { service: 'legacy-batch' }, { timeoutMs: 100 })).envelope,
    ).toMatchObject({ code: 'TIMEOUT' });
  });
});
