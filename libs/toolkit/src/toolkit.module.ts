import { Module, type DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { ConnectorDefinition } from './definition/define-connector.js';
import type { ToolDefinition } from './definition/tool-definition.js';
import { ConnectorRegistry } from './registry/connector-registry.js';
import { ToolExecutor } from './execution/tool-executor.js';
import { asyncOptionsProvider, type AsyncModuleOptions } from './util/module-options.js';
import { ToolDefinitionSet } from './registry/tool-definition-set.js';
import { ToolExplorer } from './registry/tool-explorer.js';
import { ToolRegistry } from './registry/tool-registry.js';
import { TOOLKIT_OPTIONS, type ToolkitOptions } from './toolkit.options.js';

let featureSeq = 0;

/**
 * The tool runtime. Import `forRoot` once (the gateway does); tool packs import `forFeature` with
 * their `defineTool` objects, or simply declare `@Tool` methods on their providers.
 */
@Module({})
export class ToolkitModule {
  static forRoot(options: ToolkitOptions): DynamicModule {
    return ToolkitModule.withOptions({ provide: TOOLKIT_OPTIONS, useValue: options });
  }

  static forRootAsync(options: AsyncModuleOptions<ToolkitOptions>): DynamicModule {
    const module = ToolkitModule.withOptions(asyncOptionsProvider(TOOLKIT_OPTIONS, options));
    return { ...module, imports: [...(module.imports ?? []), ...(options.imports ?? [])] };
  }

  private static withOptions(
    optionsProvider: NonNullable<DynamicModule['providers']>[number],
  ): DynamicModule {
    return {
      module: ToolkitModule,
      global: true,
      imports: [DiscoveryModule],
      providers: [optionsProvider, ToolRegistry, ConnectorRegistry, ToolExecutor, ToolExplorer],
      exports: [ToolRegistry, ConnectorRegistry, ToolExecutor, TOOLKIT_OPTIONS],
    };
  }

  /**
   * Registers `defineTool` objects and connectors. `source` names the set in boot messages.
   * @example ToolkitModule.forFeature([getServiceStatus, readLogs], { source: 'OpsToolsModule', connectors: [opsApi] })
   */
  static forFeature(
    definitions: readonly ToolDefinition[],
    options: { source?: string; connectors?: readonly ConnectorDefinition[] } | string = {},
  ): DynamicModule {
    const { source = 'ToolkitModule.forFeature', connectors = [] } =
      typeof options === 'string' ? { source: options } : options;
    const token = Symbol(`tool-definitions-${++featureSeq}`);
    return {
      module: ToolkitModule,
      providers: [{ provide: token, useValue: new ToolDefinitionSet(definitions, connectors, source) }],
    };
  }
}
