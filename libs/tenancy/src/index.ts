// Every export is public API of @toolgate/tenancy: tenant files, bindings, the resolver, connector clients.
import { CreateTenancy1764480100000 } from './migrations/1764480100000-create-tenancy.js';
import { AgentRunSettings1764600100000 } from './migrations/1764600100000-agent-run-settings.js';
import { TenantFileImports1765300100000 } from './migrations/1765300100000-tenant-file-imports.js';

export { storedRunSettings, toAgentRunSettings } from './agent-run-settings.js';
export type { AgentModelRef, AgentRunSettings } from './agent-run-settings.js';
export { BindingAdmin, toBindingView } from './binding-admin.service.js';
export { BindingResolver } from './binding-resolver.js';
export type { ResolvedAgentType } from './binding-resolver.js';
export { bindTool } from './binding-rules.js';
export { ConfigVariables } from './config-variables.js';
export { loadTenantFiles, parseTenantFile, TenantConfigError } from './config/tenant-file.loader.js';
export type { TenantFileCeilings } from './config/tenant-file.ceilings.js';
export { TENANT_ID } from './config/tenant-file.schema.js';
export type { BindingTool } from './config/tenant-file.schema.js';
export type { TenantSection, TenantSections } from './config/tenant-sections.js';
export { expandVariables } from './config/variables.js';
export { TenancyModule } from './tenancy.module.js';
export { DEFAULT_TENANCY_OPTIONS } from './tenancy.options.js';
export type { TenancyOptions } from './tenancy.options.js';
export { TenantAdmin } from './tenant-admin.service.js';
export { TenantAuditPolicy } from './tenant-audit-policy.js';
export { connectorRegionOf, CONNECTOR_REGION_KEY, TenantConnectors } from './tenant-connectors.js';
export { TenantRepository } from './tenant.repository.js';
export { TENANT_TOOL_SOURCE } from './tenant-tool-source.js';
export type { BlockedTool, TenantTools, TenantToolSource, ToolLookup } from './tenant-tool-source.js';

/** The tenancy lib's migrations, in order. */
export const TENANCY_MIGRATIONS = [
  CreateTenancy1764480100000,
  AgentRunSettings1764600100000,
  TenantFileImports1765300100000,
];
