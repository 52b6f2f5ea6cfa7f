import { ConfigurableModuleBuilder, Global, Module, type DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { ConnectorDefinition } from './definition/define-connector.js';
import type { ToolDefinition } from './definition/tool-definition.js';
import { ConnectorRegistry } from './registry/connector-registry.js';
import { ToolExecutor } from './execution/tool-executor.js';
import { ToolDefinitionSet } from './registry/tool-definition-set.js';
import { ToolExplorer } from './registry/tool-explorer.js';
import { ToolRegistry } from './registry/tool-registry.js';
import { TOOLKIT_OPTIONS, type ToolkitOptions } from './toolkit.options.js';

let featureSeq = 0;

const { ConfigurableModuleClass } = new ConfigurableModuleBuilder<ToolkitOptions>({
  optionsInjectionToken: TOOLKIT_OPTIONS,
})
  .setClassMethodName('forRoot')
  .build();

/** What `forFeature` returns: only a definition set, found by ToolExplorer wherever it sits. */
@Module({})
class ToolDefinitionsModule {}

/**
 * The tool runtime. Import `forRoot` once (the gateway does); tool packs import `forFeature` with
 * their tools (`defineToolContract(...).implement(...)`), or declare `@Tool` methods on their providers.
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [ToolRegistry, ConnectorRegistry, ToolExecutor, ToolExplorer],
  exports: [ToolRegistry, ConnectorRegistry, ToolExecutor, TOOLKIT_OPTIONS],
})
export class ToolkitModule extends ConfigurableModuleClass {
  /**
   * Registers tools (`contract.implement(...)`) and connectors. `source` names the set in boot messages.
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
      // Not ToolkitModule: its own providers (the registry...) would come along with every set.
      module: ToolDefinitionsModule,
      providers: [{ provide: token, useValue: new ToolDefinitionSet(definitions, connectors, source) }],
    };
  }
}
