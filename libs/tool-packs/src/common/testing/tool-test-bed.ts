import type { DynamicModule, Type } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import {
  ToolExecutor,
  ToolkitModule,
  ToolRegistry,
  type ToolCallRequest,
  type ToolCallResult,
} from '@toolgate/toolkit';

/** How a spec shapes one call; everything has a default. */
export interface TestCall extends Partial<Omit<ToolCallRequest, 'tool' | 'input'>> {
  /** Which implementation runs; the first registered one by default. */
  readonly implementation?: string;
  /** Overrides the tool's own limit (e.g. a short one to show a timeout quickly). */
  readonly timeoutMs?: number;
}

/** A booted toolkit with some packs, and a way to run their tools the way the gateway does. */
export interface ToolTestBed {
  readonly moduleRef: TestingModule;
  readonly executor: ToolExecutor;
  readonly registry: ToolRegistry;
  /** Builds the request the gateway would build: tenant t1, an API-key principal, locale en. */
  request(name: string, input: unknown, call?: TestCall): ToolCallRequest;
  /** Runs one call through the whole pipeline. */
  run(name: string, input: unknown, call?: TestCall): Promise<ToolCallResult>;
  close(): Promise<void>;
}

/**
 * Boots `ToolkitModule.forRoot({ defaultLocale: 'en' })` with the given pack modules, and resolves
 * connectors from `clients` (real clients pointing at loopback simulators).
 * @example
 * const bed = await createToolTestBed([OpsToolsModule], { ops_api: opsApiConnector.create({ baseUrl, token }) });
 * const result = await bed.run('get_service_status', { service: 'payment-api' });
 */
export async function createToolTestBed(
  imports: (Type | DynamicModule)[],
  clients: Readonly<Record<string, unknown>>,
): Promise<ToolTestBed> {
  const moduleRef = await Test.createTestingModule({
    imports: [ToolkitModule.forRoot({ defaultLocale: 'en' }), ...imports],
  }).compile();
  await moduleRef.init();
  const executor = moduleRef.get(ToolExecutor);
  const registry = moduleRef.get(ToolRegistry);

  const request = (name: string, input: unknown, call: TestCall = {}): ToolCallRequest => {
    const { implementation, timeoutMs, ...rest } = call;
    const contract = registry.get(name);
    if (!contract) throw new Error(`no tool ${name}`);
    const impl = implementation
      ? contract.implementations.get(implementation)
      : [...contract.implementations.values()][0];
    if (!impl) throw new Error(`no implementation ${implementation} of ${name}`);
    return {
      tool: {
        contract,
        implementation: impl,
        timeoutMs: timeoutMs ?? contract.timeoutMs,
        approval: contract.approval.mode,
        bindingVersion: null,
      },
      input,
      tenant: { id: 't1' },
      agentType: 'ops',
      principal: { principalType: 'api_key', principalId: 'k1' },
      locale: 'en',
      connectors: (_tenantId, connector) => clients[connector],
      ...rest,
    };
  };

  return {
    moduleRef,
    executor,
    registry,
    request,
    run: async (name, input, call) => executor.run(request(name, input, call)),
    close: () => moduleRef.close(),
  };
}
