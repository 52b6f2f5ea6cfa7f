// Public surface of the tenancy lib: tenant files, bindings, the resolver, connector clients.
import { CreateTenancy1764480100000 } from './migrations/1764480100000-create-tenancy.js';
import { AgentRunSettings1764600100000 } from './migrations/1764600100000-agent-run-settings.js';
import { TenantFileImports1765300100000 } from './migrations/1765300100000-tenant-file-imports.js';

export { storedRunSettings, subAgentProblems, toAgentRunSettings } from './agent-run-settings.js';
export type { AgentModelRef, AgentRunSettings, SubAgentProblem } from './agent-run-settings.js';
export { BindingAdmin, toBindingView } from './binding-admin.service.js';
export type { BindingChange } from './binding-admin.service.js';
// The views and the diff rule are the REST contract's; re-exported for the lib's existing users.
export { diffBindings } from '@toolgate/contract';
export type { BindingDiff, BindingView, EffectiveTool as EffectiveToolView } from '@toolgate/contract';
export { BindingResolver } from './binding-resolver.js';
export type { ResolvedAgentType } from './binding-resolver.js';
export { bindingProblems, bindTool } from './binding-rules.js';
export type { BindingField, BindingProblem } from './binding-rules.js';
export { ConfigVariables } from './config-variables.js';
export { loadTenantFiles, parseTenantFile, TenantConfigError } from './config/tenant-file.loader.js';
export type { LoadedTenantFile } from './config/tenant-file.loader.js';
export { NO_CEILINGS } from './config/tenant-file.ceilings.js';
export type { TenantFileCeilings } from './config/tenant-file.ceilings.js';
export {
  AGENT_TYPE,
  bindingToolEntrySchema,
  bindingToolSchema,
  runSettingsOf,
  TENANT_ID,
  tenantFileSchemaOf,
} from './config/tenant-file.schema.js';
export type { BindingTool, TenantFile, TenantFileAgentType } from './config/tenant-file.schema.js';
export type {
  SectionContext,
  SectionProblem,
  TenantSection,
  TenantSections,
} from './config/tenant-sections.js';
export { expandVariables } from './config/variables.js';
export { TenancyModule } from './tenancy.module.js';
export { DEFAULT_TENANCY_OPTIONS } from './tenancy.options.js';
export type { TenancyOptions } from './tenancy.options.js';
export { TenantAdmin, toTenantView } from './tenant-admin.service.js';
export { exportTenantFile } from './config/tenant-file.exporter.js';
export { TenantAuditPolicy } from './tenant-audit-policy.js';
export { TenantConnectors } from './tenant-connectors.js';
export { TenantRepository } from './tenant.repository.js';
export { lookupWith, NO_TENANT_TOOLS, TENANT_TOOL_SOURCE } from './tenant-tool-source.js';
export type { BlockedTool, TenantTools, TenantToolSource, ToolLookup } from './tenant-tool-source.js';
export { AgentRunSettings1764600100000, CreateTenancy1764480100000, TenantFileImports1765300100000 };

/** The tenancy lib's migrations, in order. */
export const TENANCY_MIGRATIONS = [
  CreateTenancy1764480100000,
  AgentRunSettings1764600100000,
  TenantFileImports1765300100000,
];
