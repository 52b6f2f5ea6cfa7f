import { Test, type TestingModule } from '@nestjs/testing';
import {
  BindingResolver,
  bindTool,
  storedRunSettings,
  TenantConnectors,
  toAgentRunSettings,
  type BindingTool,
  type ResolvedAgentType,
} from '@toolgate/tenancy';
import {
  defineToolContract,
  ErrorCode,
  settled,
  ToolkitModule,
  ToolRegistry,
  type EffectiveTool,
} from '@toolgate/toolkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentFactory, type AgentPrincipal } from './agent-factory.js';

/** What the last `who_am_i` call saw of its context. */
let seen: Record<string, unknown> = {};

const whoAmI = defineToolContract({
  name: 'who_am_i',
  description: 'Tells the tool context back.',
  inputSchema: z.object({}),
  risk: { level: 'L0' },
  timeoutMs: 10_000,
}).implement((_input, ctx) => {
  seen = {
    tenant: ctx.tenant,
    agentType: ctx.agentType,
    toolName: ctx.toolName,
    principal: ctx.session.auth.current?.principalId,
  };
  return { tenant: ctx.tenant?.id };
});
const readLogs = defineToolContract({
  name: 'read_logs',
  description: 'Reads logs.',
  inputSchema: z.object({}),
  risk: { level: 'L0' },
}).implement(() => []);
const searchDocs = defineToolContract({
  name: 'search_docs',
  description: 'Searches documents; loaded on demand.',
  inputSchema: z.object({}),
  risk: { level: 'L0' },
  deferred: true,
}).implement(() => []);

const wipeCache = defineToolContract({
  name: 'wipe_cache',
  description: 'Wipes the cache; top-level agents only.',
  inputSchema: z.object({}),
  risk: { level: 'L0' },
  availableInSubagents: false,
}).implement(() => ({ wiped: true }));

const agentKey: AgentPrincipal = {
  principalType: 'api_key',
  principalId: 'key_agent',
  role: 'agent',
  tenantId: 'acme',
};

describe('AgentFactory', () => {
  let moduleRef: TestingModule;
  let factory: AgentFactory;

  beforeAll(async () => {
    /** Bindings by tenant and agent type, resolved against the real registry (tighten-only applies). */
    const bindings: Record<string, Record<string, BindingTool[]>> = {
      acme: {
        ops_assistant: [{ name: 'who_am_i', timeoutMs: 2_000 }, { name: 'search_docs' }],
        support_bot: [{ name: 'read_logs' }, { name: 'wipe_cache' }],
      },
      globex: { ops_assistant: [{ name: 'read_logs' }] },
    };
    const resolve = (registry: ToolRegistry, tenantId: string): Map<string, ResolvedAgentType> =>
      new Map(
        Object.entries(bindings[tenantId] ?? {}).map(([agentType, tools]) => {
          const bound = new Map<string, EffectiveTool>();
          for (const entry of tools) {
            const result = bindTool(entry, registry, 3);
            if (result.ok) bound.set(entry.name, result.tool);
          }
          const run = toAgentRunSettings(storedRunSettings(null));
          return [agentType, { tenantId, agentType, description: agentType, version: 3, tools: bound, run }];
        }),
      );
    moduleRef = await Test.createTestingModule({
      imports: [
        ToolkitModule.forRoot({ defaultLocale: 'en' }),
        ToolkitModule.forFeature([whoAmI, readLogs, searchDocs, wipeCache], 'agents-spec'),
      ],
      providers: [
        AgentFactory,
        {
          provide: BindingResolver,
          inject: [ToolRegistry],
          useFactory: (registry: ToolRegistry) => ({
            agentTypes: async (tenantId: string) => (bindings[tenantId] ? resolve(registry, tenantId) : null),
            agentType: async (tenantId: string, agentType: string) =>
              resolve(registry, tenantId).get(agentType) ?? null,
            // Nothing cached: `create` takes its loading path (the invoke e2e suites take the cached one).
            cachedAgentType: () => undefined,
          }),
        },
        { provide: TenantConnectors, useValue: { forTenant: async () => () => undefined } },
      ],
    }).compile();
    await moduleRef.init();
    factory = moduleRef.get(AgentFactory);
  });
  afterAll(() => moduleRef.close());

  it("gives an agent exactly its agent type's bound tools, under the binding's effective policy", async () => {
    const agent = await factory.create('acme', 'ops_assistant', agentKey);
    expect(agent.tools().map((t) => t.contract.name)).toEqual(['who_am_i']);
    expect(agent.tools(true).map((t) => t.contract.name)).toEqual(['who_am_i', 'search_docs']);
    expect(agent.tool('who_am_i')).toMatchObject({ timeoutMs: 2_000, bindingVersion: 3 });
  });

  it('answers TOOL_NOT_FOUND for a tool that exists but is not bound, exactly as for one that does not exist', async () => {
    const agent = await factory.create('acme', 'ops_assistant', agentKey);
    const failure = (name: string) => {
      try {
        agent.tool(name);
      } catch (err) {
        return err;
      }
      throw new Error(`${name} was found`);
    };
    expect(failure('read_logs')).toMatchObject({
      code: ErrorCode.TOOL_NOT_FOUND,
      params: { tool: 'read_logs', agentType: 'ops_assistant' },
    });
    expect(failure('no_such_tool')).toMatchObject({
      code: ErrorCode.TOOL_NOT_FOUND,
      params: { tool: 'no_such_tool' },
    });
    await expect(async () => agent.invoke('read_logs', {}, { locale: 'en' })).rejects.toMatchObject({
      code: ErrorCode.TOOL_NOT_FOUND,
    });
  });

  it("resolves bindings per tenant: the same agent type has each tenant's own tools", async () => {
    const globex = await factory.create('globex', 'ops_assistant', { ...agentKey, tenantId: 'globex' });
    expect(globex.tools().map((t) => t.contract.name)).toEqual(['read_logs']);
  });

  it('answers NOT_FOUND for an unknown tenant or agent type, and for an agent type the key is not limited to', async () => {
    const limited: AgentPrincipal = { ...agentKey, agentTypes: ['support_bot'] };
    for (const [tenantId, agentType, principal] of [
      ['nobody', 'ops_assistant', agentKey],
      ['acme', 'sales_bot', agentKey],
      ['acme', 'ops_assistant', limited],
    ] as const)
      await expect(settled(() => factory.create(tenantId, agentType, principal))).rejects.toMatchObject({
        code: ErrorCode.NOT_FOUND,
        params: { resource: `agent type ${agentType}` },
      });
    await expect(settled(() => factory.create('acme', 'support_bot', limited))).resolves.toMatchObject({
      agentType: 'support_bot',
    });
  });

  it('binds a sub-agent without the tools only top-level agents may use: absent, and TOOL_NOT_FOUND by name', async () => {
    const top = await factory.create('acme', 'support_bot', agentKey);
    expect(top.tools().map((t) => t.contract.name)).toEqual(['read_logs', 'wipe_cache']);
    const sub = await factory.create('acme', 'support_bot', agentKey, { subAgent: true });
    expect(sub.tools(true).map((t) => t.contract.name)).toEqual(['read_logs']);
    expect(() => sub.tool('wipe_cache')).toThrow(expect.objectContaining({ code: ErrorCode.TOOL_NOT_FOUND }));
    await expect(async () => sub.invoke('wipe_cache', {}, { locale: 'en' })).rejects.toMatchObject({
      code: ErrorCode.TOOL_NOT_FOUND,
    });
  });

  it('lists the agent types a principal may use, with their tool counts and models', async () => {
    const describeModel = (m: { provider: string; model: string } | null) => ({
      name: m ? `${m.provider}/${m.model}` : 'demo/demo-planner',
      label: m ? 'configured' : 'demo',
      offline: !m,
    });
    const demo = { name: 'demo/demo-planner', label: 'demo', offline: true };
    expect(await factory.agentTypes('acme', agentKey, describeModel)).toEqual([
      { agentType: 'ops_assistant', description: 'ops_assistant', version: 3, tools: 2, model: demo },
      { agentType: 'support_bot', description: 'support_bot', version: 3, tools: 2, model: demo },
    ]);
    expect(
      (await factory.agentTypes('acme', { ...agentKey, agentTypes: ['support_bot'] }, describeModel)).map(
        (a) => a.agentType,
      ),
    ).toEqual(['support_bot']);
    expect(await factory.agentTypes('nobody', agentKey, describeModel)).toEqual([]);
  });

  it("runs a bound tool through the pipeline as the agent's tenant, agent type and principal", async () => {
    const agent = await factory.create('acme', 'ops_assistant', agentKey);
    const result = await agent.invoke('who_am_i', {}, { locale: 'en' });
    expect(result.envelope).toEqual({ status: 'ok', data: { tenant: 'acme' } });
    expect(seen).toEqual({
      tenant: { id: 'acme' },
      agentType: 'ops_assistant',
      toolName: 'who_am_i',
      principal: 'key_agent',
    });
    expect(JSON.parse(await agent.callable('who_am_i', { locale: 'en' })({}))).toEqual({
      status: 'ok',
      data: { tenant: 'acme' },
    });
  });
});
