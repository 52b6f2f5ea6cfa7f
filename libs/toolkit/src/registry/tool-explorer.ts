import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { DEFAULT_IMPLEMENTATION } from '../constants.js';
import {
  getToolMethodMetadata,
  governInstanceMethod,
  methodToolDefinition,
} from '../definition/tool.decorator.js';
import { ToolCallHookProvider, type ToolCallHook } from '../execution/call-hooks.js';
import type { EffectiveTool } from '../execution/tool-call.js';
import { ToolExecutor } from '../execution/tool-executor.js';
import { ConnectorRegistry } from './connector-registry.js';
import { ToolDefinitionSet } from './tool-definition-set.js';
import { ToolRegistry } from './tool-registry.js';

interface PendingMethod {
  instance: object;
  method: string;
  tool: string;
  implementation: string;
}

/**
 * Finds every tool at boot — `@Tool` methods on providers and `forFeature` sets — and every
 * pipeline hook, fills the registry, seals it, and puts decorated methods under governance.
 */
@Injectable()
export class ToolExplorer implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly registry: ToolRegistry,
    private readonly executor: ToolExecutor,
    private readonly connectors: ConnectorRegistry,
  ) {}

  onModuleInit(): void {
    if (this.registry.isSealed) return;
    const pending = this.registerTools();
    this.registry.seal();
    this.installHooks();
    for (const p of pending) this.govern(p);
  }

  private registerTools(): PendingMethod[] {
    const pending: PendingMethod[] = [];
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (!instance || typeof instance !== 'object') continue;
      if (instance instanceof ToolDefinitionSet) {
        for (const def of instance.definitions)
          this.registry.register(def, `forFeature in ${instance.source}`);
        for (const connector of instance.connectors) this.connectors.register(connector, instance.source);
        continue;
      }
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const meta = getToolMethodMetadata((prototype as Record<string, unknown>)[method]);
        if (!meta) continue;
        const source = `${instance.constructor.name}.${method}`;
        if (!wrapper.isDependencyTreeStatic()) {
          this.registry.reportProblem(
            `tool "${meta.contract.name}" (${source}): tools must live on singleton providers, not request-scoped ones`,
          );
          continue;
        }
        const impl = this.registry.register(methodToolDefinition(meta, instance), source);
        if (impl) {
          pending.push({
            instance,
            method,
            tool: meta.contract.name,
            implementation: meta.implementation ?? DEFAULT_IMPLEMENTATION,
          });
        }
      }
    }
    return pending;
  }

  private installHooks(): void {
    const hooks = this.discovery
      .getProviders({ metadataKey: ToolCallHookProvider.KEY })
      .flatMap((wrapper) => {
        const options = this.discovery.getMetadataByDecorator(ToolCallHookProvider, wrapper);
        const hook = wrapper.instance as ToolCallHook | undefined;
        return hook && options ? [{ hook, order: options.order }] : [];
      });
    this.executor.useHooks(hooks);
  }

  private govern(p: PendingMethod): void {
    const contract = this.registry.get(p.tool)!;
    const tool: EffectiveTool = {
      contract,
      implementation: contract.implementations.get(p.implementation)!,
      timeoutMs: contract.timeoutMs,
      approval: contract.approval.mode,
      bindingVersion: null,
    };
    governInstanceMethod(p.instance, p.method, (input, callerCtx) =>
      this.executor.runInProcess(tool, input, callerCtx),
    );
  }
}
