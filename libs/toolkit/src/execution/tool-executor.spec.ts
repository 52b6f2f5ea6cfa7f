import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { always } from '../definition/approval-policy.js';
import { defineToolContract } from '../definition/define-tool-contract.js';
import { Tool } from '../definition/tool.decorator.js';
import { ToolCallFailedError, ToolError } from '../errors/toolgate-error.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import { DEFAULT_TIMEOUT_MS } from '../constants.js';
import { ToolkitModule } from '../toolkit.module.js';
import { HookOrder, ToolCallHookProvider, type ToolCallHook } from './call-hooks.js';
import type { ToolCall, ToolCallRequest, ToolCallResult } from './tool-call.js';
import type { ToolContext } from './tool-context.js';
import { settled as asPromise } from '../util/settled.js';
import { ToolExecutor } from './tool-executor.js';

const echo = defineToolContract({
  name: 'echo_text',
  description: 'Echoes its input.',
  inputSchema: z.object({ text: z.string(), times: z.number().int().default(1) }),
  risk: { level: 'L0' },
}).implement(({ text, times }) => ({ text: text.repeat(times) }));
const slow = defineToolContract({
  name: 'slow_call',
  description: 'Waits longer than its limit.',
  inputSchema: z.object({}),
  risk: { level: 'L1' },
  timeoutMs: 50,
}).implement(
  (_input, ctx) =>
    new Promise((resolve) => {
      // Far past its limit, so that "did not wait" shows on any machine (was 300 ms).
      const t = setTimeout(() => resolve({ done: true }), 10_000);
      ctx.abortSignal.addEventListener('abort', () => clearTimeout(t));
    }),
);
/** Declares no limit, so it runs under the default one; answers only when aborted. */
const waitsForAbort = {
  started: 0,
  aborted: 0,
  tool: defineToolContract({
    name: 'waits_for_abort',
    description: 'Never answers on its own.',
    inputSchema: z.object({}),
    risk: { level: 'L0' },
  }).implement(
    (_input, ctx) =>
      new Promise<never>(() => {
        waitsForAbort.started++;
        ctx.abortSignal.addEventListener('abort', () => waitsForAbort.aborted++);
      }),
  ),
};
const failing = defineToolContract({
  name: 'failing_call',
  description: 'Throws.',
  inputSchema: z.object({ typed: z.boolean() }),
  risk: { level: 'L1' },
}).implement(({ typed }) => {
  if (typed) throw new ToolError('SERVICE_NOT_FOUND', '服务 x 不存在', '用 list_services 查看');
  const err = new Error(
    'boom at https://user:secret@example.com/path?token=abc\n    at Object.<anonymous> (/x.js:1:1)',
  );
  throw err;
});
const bad = defineToolContract({
  name: 'bad_output',
  description: 'Returns what JSON cannot hold.',
  inputSchema: z.object({ kind: z.enum(['map', 'nan', 'date', 'cycle', 'deep']) }),
  outputSchema: z.object({ value: z.unknown() }),
  risk: { level: 'L0' },
}).implement(({ kind }) => {
  if (kind === 'map') return { value: new Map() };
  if (kind === 'nan') return { value: Number.NaN };
  if (kind === 'date') return { value: new Date('2026-01-02T03:04:05.006Z') };
  if (kind === 'deep') {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 200_000; i++) deep = { d: deep };
    return { value: deep };
  }
  const o: Record<string, unknown> = {};
  o.self = o;
  return { value: o };
});
const snapshots = defineToolContract({
  name: 'make_report',
  description: 'Streams snapshots.',
  inputSchema: z.object({ project: z.string() }),
  risk: { level: 'L0' },
  label: { start: ({ project }) => `为 ${project} 生成报告`, delta: (_i, p: { phase: string }) => p.phase },
}).implement(async function* () {
  yield { phase: 'collect', sections: 0 };
  yield { phase: 'write', sections: 2 };
  return { ignored: true };
});

@Injectable()
class OpsTools {
  calls = 0;
  @Tool({
    name: 'ping_service',
    description: 'Pings.',
    inputSchema: z.object({ service: z.string() }),
    risk: { level: 'L0' },
  })
  ping(input: { service: string }, ctx: ToolContext) {
    this.calls++;
    return { service: input.service, principal: ctx.session.auth.current?.principalId ?? null };
  }

  @Tool({
    name: 'ping_twice',
    description: 'Pings via the other tool.',
    inputSchema: z.object({}),
    risk: { level: 'L0' },
  })
  async pingTwice(_input: object, ctx: ToolContext) {
    const first = (await this.ping({ service: 'a' }, ctx)) as { principal: string | null };
    return { nested: first.principal };
  }
}

@Injectable()
@ToolCallHookProvider({ order: HookOrder.AUDIT })
class RecordingHook implements ToolCallHook {
  readonly seen: string[] = [];
  beforeExecute(call: ToolCall) {
    this.seen.push(`before:${call.tool.contract.name}`);
    return undefined;
  }
  afterCall(call: ToolCall, result: ToolCallResult) {
    this.seen.push(
      `after:${call.tool.contract.name}:${'code' in result.envelope ? result.envelope.code : 'ok'}`,
    );
  }
}

@Module({
  imports: [ToolkitModule.forFeature([echo, slow, waitsForAbort.tool, failing, bad, snapshots], 'spec')],
  providers: [OpsTools, RecordingHook],
})
class SpecModule {}

/** One turn of the real event loop (setImmediate is left unfaked). */
const turn = () => new Promise((r) => setImmediate(r));

describe('ToolExecutor', () => {
  let executor: ToolExecutor;
  let registry: ToolRegistry;
  let close: () => Promise<void>;
  let ops: OpsTools;
  let hook: RecordingHook;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ToolkitModule.forRoot({ defaultLocale: 'en' }), SpecModule],
    }).compile();
    await moduleRef.init();
    executor = moduleRef.get(ToolExecutor);
    registry = moduleRef.get(ToolRegistry);
    ops = moduleRef.get(OpsTools);
    hook = moduleRef.get(RecordingHook);
    close = () => moduleRef.close();
  });
  afterAll(() => close());

  const request = (name: string, input: unknown, extra: Partial<ToolCallRequest> = {}): ToolCallRequest => {
    const contract = registry.get(name)!;
    return {
      tool: {
        contract,
        implementation: [...contract.implementations.values()][0]!,
        timeoutMs: contract.timeoutMs,
        approval: contract.approval.mode,
        bindingVersion: null,
      },
      input,
      tenant: { id: 't1' },
      agentType: 'ops',
      principal: { principalType: 'api_key', principalId: 'k1' },
      locale: 'en',
      ...extra,
    };
  };

  it('wraps success in the envelope and fills defaults', async () => {
    const r = await executor.run(request('echo_text', { text: 'ab', times: 2 }));
    expect(r.envelope).toEqual({ data: { text: 'abab' }, status: 'ok' });
    expect((await executor.run(request('echo_text', { text: 'x' }))).envelope).toEqual({
      data: { text: 'x' },
      status: 'ok',
    });
  });

  it('answers the uniform signature as a JSON string', async () => {
    const call = executor.callable(request('echo_text', undefined));
    expect(JSON.parse(await call({ text: 'hi' }))).toEqual({ data: { text: 'hi' }, status: 'ok' });
  });

  it('gives readable INVALID_INPUT with issues, in the callers language', async () => {
    const r = await executor.run(request('echo_text', { text: 5 }, { locale: 'zh-CN' }));
    expect(r.envelope).toMatchObject({
      code: 'INVALID_INPUT',
      details: { issues: [{ path: 'text', message: "路径 'text' 应为 string，实际收到 number" }] },
    });
    expect(r.stage).toBe('invalid');
  });

  it('refuses input a store cannot hold before validation', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    for (const input of [{ text: 'a\u0000b' }, { text: '\uD800' }, deep]) {
      const r = await executor.run(request('echo_text', input));
      expect(r.envelope).toMatchObject({ code: 'INVALID_INPUT' });
      expect(r.stage).toBe('refused');
    }
  });

  it('times out with the texts of tool-design-rules §A3, fires the abort signal and does not wait', async () => {
    const t = Date.now();
    const r = await executor.run(request('slow_call', {}, { locale: 'zh-CN' }));
    // A hang guard: the tool answers after 10 s, so anything under 5 s ended at the limit.
    expect(Date.now() - t).toBeLessThan(5_000);
    expect(r.envelope).toEqual({
      error: '工具调用超时',
      code: 'TIMEOUT',
      suggestedAction: '缩小查询范围或重试',
    });
  });

  it('gives a tool that declares no limit the 10 s default, and times it out at exactly 10 s', async () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(10_000);
    expect(registry.get('waits_for_abort')!.timeoutMs).toBe(10_000);
    // Fake clock: the 10 s are proven without spending them (the e2e suite proves the HTTP path with
    // a short binding limit).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
    try {
      const before = { ...waitsForAbort };
      let settled: Awaited<ReturnType<ToolExecutor['run']>> | undefined;
      void asPromise(() => executor.run(request('waits_for_abort', {}, { locale: 'zh-CN' }))).then(
        (r) => (settled = r),
      );
      // The body starts after the pipeline's awaited steps; the fake clock does not move meanwhile
      // (vi.waitUntil would advance it, so this turns the real event loop instead).
      while (waitsForAbort.started === before.started) await turn();
      await vi.advanceTimersByTimeAsync(9_999);
      expect(settled).toBeUndefined();
      expect(waitsForAbort.aborted).toBe(before.aborted);
      await vi.advanceTimersByTimeAsync(1);
      while (!settled) await turn();
      expect(settled!.envelope).toEqual({
        error: '工具调用超时',
        code: 'TIMEOUT',
        suggestedAction: '缩小查询范围或重试',
      });
      expect(settled!.stage).toBe('timed_out');
      expect(settled!.durationMs).toBe(10_000);
      expect(waitsForAbort.aborted).toBe(before.aborted + 1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps a ToolError code and cleans anything else into UPSTREAM_ERROR', async () => {
    expect((await executor.run(request('failing_call', { typed: true }))).envelope).toEqual({
      error: '服务 x 不存在',
      code: 'SERVICE_NOT_FOUND',
      suggestedAction: '用 list_services 查看',
    });
    const r = await executor.run(request('failing_call', { typed: false }));
    expect(r.envelope).toMatchObject({ code: 'UPSTREAM_ERROR' });
    const text = JSON.stringify(r.envelope);
    expect(text).not.toContain('secret');
    expect(text).not.toContain('abc');
    expect(text).not.toContain('at Object');
  });

  it('says where a failure came from: the tool, or the platform around it', async () => {
    expect((await executor.run(request('failing_call', { typed: true }))).errorOrigin).toBe('tool');
    expect((await executor.run(request('failing_call', { typed: false }))).errorOrigin).toBe('tool');
    expect((await executor.run(request('echo_text', { text: 5 }))).errorOrigin).toBe('platform');
    expect((await executor.run(request('slow_call', {}))).errorOrigin).toBe('platform');
    expect((await executor.run(request('echo_text', { text: 'x' }))).errorOrigin).toBeUndefined();
  });

  it('refuses platform-reserved codes in ToolError', () => {
    for (const code of ['RATE_LIMITED', 'APPROVAL_PENDING', 'AUDIT_UNAVAILABLE', 'INTERNAL_ERROR'])
      expect(() => new ToolError(code, 'x', 'y')).toThrow(/reserved for the platform/);
    expect(() => new ToolError('UPSTREAM_RATE_LIMITED', 'x', 'y')).not.toThrow();
  });

  it('does not run a tool whose caller has already gone away', async () => {
    const before = ops.calls;
    const gone = new AbortController();
    gone.abort(new Error('client closed the connection'));
    const r = await executor.run(request('ping_service', { service: 'a' }, { signal: gone.signal }));
    expect(r.stage).toBe('stopped');
    expect(r.envelope).toMatchObject({ code: 'UPSTREAM_ERROR' });
    expect(ops.calls).toBe(before);
  });

  it('refuses outputs JSON cannot hold, naming the path, and turns Dates into ISO strings', async () => {
    for (const kind of ['map', 'nan', 'cycle', 'deep']) {
      const r = await executor.run(request('bad_output', { kind }));
      expect(r.envelope).toMatchObject({ code: 'OUTPUT_INVALID' });
      expect((r.envelope as { error: string }).error).toContain("at path 'value");
    }
    expect((await executor.run(request('bad_output', { kind: 'date' }))).envelope).toEqual({
      data: { value: '2026-01-02T03:04:05.006Z' },
      status: 'ok',
    });
  });

  it('takes the last snapshot of a generator and streams partials with labels', async () => {
    const events: unknown[] = [];
    const r = await executor.run(
      request('make_report', { project: 'p1' }, { onEvent: (e) => events.push(e) }),
    );
    expect(r.envelope).toEqual({ data: { phase: 'write', sections: 2 }, status: 'ok' });
    expect(events).toEqual([
      { type: 'label', phase: 'start', text: '为 p1 生成报告' },
      { type: 'partial', data: { phase: 'collect', sections: 0 } },
      { type: 'label', phase: 'delta', text: 'collect' },
      { type: 'partial', data: { phase: 'write', sections: 2 } },
      { type: 'label', phase: 'delta', text: 'write' },
      { type: 'label', phase: 'complete', text: 'Make report' },
    ]);
  });

  it('runs hooks around every call', async () => {
    hook.seen.length = 0;
    await executor.run(request('echo_text', { text: 'x' }));
    await executor.run(request('echo_text', { text: 1 }));
    expect(hook.seen).toEqual(['before:echo_text', 'after:echo_text:ok', 'after:echo_text:INVALID_INPUT']);
  });

  it('governs direct calls of @Tool methods: validation, system principal, inherited context', async () => {
    hook.seen.length = 0;
    await expect(ops.ping({ service: 'x' }, undefined as never)).resolves.toEqual({
      service: 'x',
      principal: 'system',
    });
    await expect(ops.ping({ service: 42 } as never, undefined as never)).rejects.toBeInstanceOf(
      ToolCallFailedError,
    );
    const r = await executor.run(request('ping_twice', {}));
    expect(r.envelope).toEqual({ data: { nested: 'k1' }, status: 'ok' });
    expect(hook.seen).toContain('before:ping_service');
  });

  it('refuses an ungoverned instance', async () => {
    await expect(new OpsTools().ping({ service: 'x' }, undefined as never)).rejects.toThrow(
      /only run through the ToolExecutor/,
    );
  });
});

describe('boot rules', () => {
  const boot = async (defs: unknown[]) => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        ToolkitModule.forRoot({ defaultLocale: 'en' }),
        ToolkitModule.forFeature(defs as never, 'boot-spec'),
      ],
    }).compile();
    await moduleRef.init();
    await moduleRef.close();
  };
  const base = {
    name: 'ok_tool',
    description: 'd',
    inputSchema: z.object({}),
    risk: { level: 'L0' },
    execute: () => 1,
  };

  it.each([
    [{ ...base, name: 'BadName' }, 'name must be snake_case'],
    [{ ...base, description: ' ' }, 'description must not be empty'],
    [{ ...base, inputSchema: undefined }, 'inputSchema is required'],
    [{ ...base, inputSchema: { type: 'object' } }, 'mark the tool dynamic'],
    [{ ...base, dynamic: true, inputSchema: { type: 'nonsense' } }, 'does not compile'],
    [
      {
        ...base,
        dynamic: true,
        inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } },
      },
      'does not compile',
    ],
    [{ ...base, risk: {} }, 'risk.level is required'],
    [{ ...base, risk: { level: 'L3' } }, 'L3 tool needs approval'],
    [{ ...base, timeoutMs: 30_001 }, 'timeoutMs must be'],
  ])('refuses %#', async (def, rule) => {
    await expect(boot([def])).rejects.toThrow(
      new RegExp(`tool "\\S+" \\(forFeature in boot-spec\\): .*${rule}`),
    );
  });

  it('refuses duplicates and accepts L3 with always()', async () => {
    await expect(boot([base, base])).rejects.toThrow(/duplicated/);
    await expect(boot([{ ...base, risk: { level: 'L3' }, approval: always() }])).resolves.toBeUndefined();
  });
});
