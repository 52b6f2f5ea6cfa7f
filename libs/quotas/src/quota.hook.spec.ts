import { Test, type TestingModule } from '@nestjs/testing';
import { BindingResolver } from '@toolgate/tenancy';
import type { Quota } from './tenant-quota-settings.js';
import {
  defineToolContract,
  ErrorCode,
  isOk,
  ToolExecutor,
  ToolkitModule,
  ToolRegistry,
  ToolgateError,
  type CallFace,
  type ToolCallResult,
} from '@toolgate/toolkit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { CallQuotas } from './call-quotas.js';
import { QuotaHook } from './quota.hook.js';
import { DEFAULT_QUOTAS_OPTIONS, QUOTAS_OPTIONS, type QuotasOptions } from './quotas.options.js';

/** 2026-01-01T00:00:00Z: a whole number of minutes since the epoch. */
const MINUTE_START = Date.UTC(2026, 0, 1);

let executions = 0;
const tool = (name: string) =>
  defineToolContract({
    name,
    description: `The ${name} tool.`,
    inputSchema: z.object({}),
    risk: { level: 'L0' },
  }).implement(() => ({ run: ++executions }));

describe('QuotaHook', () => {
  let moduleRef: TestingModule;
  /** Quotas by tenant, as the binding resolver would hand out the tenants' settings. */
  let quotas: Map<string, unknown>;

  async function boot(options: QuotasOptions = { ...DEFAULT_QUOTAS_OPTIONS, redisPrefix: 'spec' }) {
    moduleRef = await Test.createTestingModule({
      imports: [
        ToolkitModule.forRoot({ defaultLocale: 'en' }),
        ToolkitModule.forFeature([tool('read_status'), tool('read_logs')], 'quota-spec'),
      ],
      providers: [
        CallQuotas,
        QuotaHook,
        { provide: QUOTAS_OPTIONS, useValue: options },
        {
          provide: BindingResolver,
          useValue: {
            tenant: async (id: string) =>
              quotas.has(id) ? { id, settings: { quotas: quotas.get(id) } } : null,
          },
        },
      ],
    }).compile();
    await moduleRef.init();
  }

  /** Calls a tool the way the gateway does, for one tenant and one key. */
  async function call(
    name: string,
    tenantId: string | null = 'acme',
    keyId = 'key_a',
    face: CallFace = 'rest',
  ): Promise<ToolCallResult> {
    const contract = moduleRef.get(ToolRegistry).get(name)!;
    return moduleRef.get(ToolExecutor).run({
      tool: {
        contract,
        implementation: [...contract.implementations.values()][0]!,
        timeoutMs: contract.timeoutMs,
        approval: contract.approval.mode,
        bindingVersion: 1,
      },
      input: {},
      tenant: tenantId === null ? null : { id: tenantId },
      agentType: 'ops',
      principal: { principalType: 'api_key', principalId: keyId, tenantId },
      locale: 'en',
      face,
    });
  }
  /** The codes of calls made one after the other ('ok' for a success). */
  async function codes(...calls: Parameters<typeof call>[]): Promise<string[]> {
    const out: string[] = [];
    for (const args of calls) {
      const { envelope } = await call(...args);
      out.push(isOk(envelope) ? 'ok' : envelope.code);
    }
    return out;
  }
  const limit = (acme: Quota[]) => quotas.set('acme', acme);

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(MINUTE_START + 20_000);
    executions = 0;
    quotas = new Map();
    await boot();
  });
  afterEach(async () => {
    await moduleRef.close();
    vi.useRealTimers();
  });

  it('refuses the call over a tenant quota with RATE_LIMITED and the seconds left in the minute; the tool never runs', async () => {
    limit([{ scope: 'tenant', tool: '*', perMinute: 2 }]);
    expect(await codes(['read_status'], ['read_status'])).toEqual(['ok', 'ok']);
    vi.setSystemTime(MINUTE_START + 45_700); // 14.3 s left: rounded up
    const refused = await call('read_status');
    expect(refused.envelope).toMatchObject({
      code: ErrorCode.RATE_LIMITED,
      details: { retryAfterSeconds: 15, quota: { perMinute: 2 } },
    });
    expect(refused.envelope).toMatchObject({
      error: expect.stringContaining('2/min per tenant for all tools'),
    });
    expect(executions).toBe(2);
  });

  it('limits only the calls of one face with a face quota, counted apart from the others', async () => {
    limit([{ scope: 'tenant', tool: '*', face: 'mcp', perMinute: 1 }]);
    expect(
      await codes(
        ['read_status', 'acme', 'key_a', 'mcp'],
        ['read_status', 'acme', 'key_a', 'rest'],
        ['read_status', 'acme', 'key_a', 'run'],
      ),
    ).toEqual(['ok', 'ok', 'ok']);
    const refused = await call('read_status', 'acme', 'key_a', 'mcp');
    expect(refused.envelope).toMatchObject({
      code: ErrorCode.RATE_LIMITED,
      error: expect.stringContaining('(mcp calls)'),
      details: { quota: { face: 'mcp', perMinute: 1 } },
    });
    expect(await codes(['read_status', 'acme', 'key_a', 'rest'])).toEqual(['ok']);
  });

  it('lets calls through again in the next minute', async () => {
    limit([{ scope: 'tenant', tool: '*', perMinute: 1 }]);
    expect(await codes(['read_status'], ['read_status'])).toEqual(['ok', ErrorCode.RATE_LIMITED]);
    vi.setSystemTime(MINUTE_START + 60_000);
    expect(await codes(['read_status'])).toEqual(['ok']);
  });

  it('asks a client to wait at least one second, even when the window ends sooner', async () => {
    limit([{ scope: 'tenant', tool: '*', perMinute: 1 }]);
    vi.setSystemTime(MINUTE_START + 59_800);
    await call('read_status');
    expect((await call('read_status')).envelope).toMatchObject({ details: { retryAfterSeconds: 1 } });
  });

  it('counts a key quota per key and a tenant quota across all keys of the tenant', async () => {
    limit([{ scope: 'key', tool: '*', perMinute: 1 }]);
    expect(await codes(['read_status', 'acme', 'key_a'], ['read_status', 'acme', 'key_b'])).toEqual([
      'ok',
      'ok',
    ]);
    expect(await codes(['read_status', 'acme', 'key_a'])).toEqual([ErrorCode.RATE_LIMITED]);

    limit([{ scope: 'tenant', tool: 'read_logs', perMinute: 1 }]);
    vi.setSystemTime(MINUTE_START + 120_000); // a new window, and past the quota cache
    expect(await codes(['read_logs', 'acme', 'key_a'], ['read_logs', 'acme', 'key_b'])).toEqual([
      'ok',
      ErrorCode.RATE_LIMITED,
    ]);
  });

  it('limits only the named tool with a tool quota, every tool with *', async () => {
    limit([{ scope: 'tenant', tool: 'read_logs', perMinute: 1 }]);
    expect(await codes(['read_logs'], ['read_status'], ['read_status'], ['read_logs'])).toEqual([
      'ok',
      'ok',
      'ok',
      ErrorCode.RATE_LIMITED,
    ]);
  });

  it('counts a call once when two quotas share a counter: the stricter one decides', async () => {
    limit([
      { scope: 'tenant', tool: '*', perMinute: 4 },
      { scope: 'tenant', tool: '*', perMinute: 100 },
    ]);
    const five = await codes(...Array.from({ length: 5 }, (): [string] => ['read_status']));
    expect(five).toEqual(['ok', 'ok', 'ok', 'ok', ErrorCode.RATE_LIMITED]);
  });

  it("never lets one tenant's calls use another tenant's quota", async () => {
    limit([{ scope: 'tenant', tool: '*', perMinute: 1 }]);
    quotas.set('globex', [{ scope: 'tenant', tool: '*', perMinute: 1 }]);
    expect(await codes(['read_status', 'acme'], ['read_status', 'globex'])).toEqual(['ok', 'ok']);
  });

  it('limits nothing for tenants without quotas, unknown tenants and calls outside any tenant', async () => {
    quotas.set('globex', []);
    const many = (tenantId: string | null) =>
      Array.from({ length: 20 }, (): Parameters<typeof call> => ['read_status', tenantId]);
    expect(new Set(await codes(...many('globex'), ...many('nobody'), ...many(null)))).toEqual(
      new Set(['ok']),
    );
  });

  it("counts an agent run's start as one call of its key (face run) for quotas of all tools, on the calls' counter", async () => {
    const start = () =>
      moduleRef
        .get(CallQuotas)
        .assertRoom({ tenantId: 'acme', principalId: 'key_a', tool: null, face: 'run', locale: 'en' })
        .then(
          () => 'ok',
          (err: ToolgateError) => err,
        );
    limit([{ scope: 'key', tool: '*', perMinute: 2 }]);
    expect(await start()).toBe('ok');
    expect(await codes(['read_status', 'acme', 'key_a', 'run'])).toEqual(['ok']);
    const refused = await start();
    expect(refused).toBeInstanceOf(ToolgateError);
    expect(refused).toMatchObject({
      code: ErrorCode.RATE_LIMITED,
      headers: { 'retry-after': '40' },
      details: { retryAfterSeconds: 40, quota: { scope: 'key', perMinute: 2 } },
    });
    // A quota of one tool does not count a run's start; one of another face neither.
    vi.setSystemTime(MINUTE_START + 60_000);
    limit([
      { scope: 'key', tool: 'read_logs', perMinute: 1 },
      { scope: 'key', tool: '*', face: 'mcp', perMinute: 1 },
    ]);
    vi.setSystemTime(MINUTE_START + 120_000); // past the quota cache
    expect([await start(), await start(), await start()]).toEqual(['ok', 'ok', 'ok']);
  });

  it('lets calls through when the shared quota store does not answer', async () => {
    await moduleRef.close();
    await boot({ ...DEFAULT_QUOTAS_OPTIONS, redisUrl: 'redis://127.0.0.1:1', redisPrefix: 'spec' }); // nothing listens on port 1
    limit([{ scope: 'tenant', tool: '*', perMinute: 1 }]);
    expect(await codes(['read_status'], ['read_status'])).toEqual(['ok', 'ok']);
  });
});
