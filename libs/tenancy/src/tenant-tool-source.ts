import type { RegisteredContract, ToolRegistry } from '@toolgate/toolkit';

/**
 * Why a tool a binding names exists for the tenant but may not be called now: quarantined until an
 * admin reviews its changed definition, or removed by its source.
 */
export interface BlockedTool {
  readonly code: 'TOOL_QUARANTINED' | 'TOOL_NOT_FOUND';
  /** Said in the error's details, e.g. `removed_upstream`. */
  readonly reason: string;
}

/** The tools one tenant has beyond the registry's, as the binding rules see them. */
export interface TenantTools {
  /** Every tool of the tenant by name, blocked ones included (a binding naming one stays valid). */
  readonly tools: ReadonlyMap<string, RegisteredContract>;
  /** The ones that may not be called now, by name. */
  readonly blocked: ReadonlyMap<string, BlockedTool>;
}

/**
 * Tools that belong to one tenant (imported from an outside MCP server or OpenAPI service). The
 * registry is sealed at boot and global; this seam lets a lib add tenant-scoped contracts that
 * bindings may name. Optional: without a provider, bindings see the registry only.
 */
export interface TenantToolSource {
  toolsOf(tenantId: string): Promise<TenantTools>;
}

/** The injection token of the optional `TenantToolSource`. */
export const TENANT_TOOL_SOURCE = Symbol('TENANT_TOOL_SOURCE');

/** What the binding rules look tools up in: the registry, or the registry plus a tenant's tools. */
export type ToolLookup = Pick<ToolRegistry, 'get'>;

export const NO_TENANT_TOOLS: TenantTools = { tools: new Map(), blocked: new Map() };

/**
 * The registry first, then the tenant's own tools. A tenant tool never shadows a registry tool:
 * the source names them `<server>__<tool>`, which no registry name can be.
 */
export function lookupWith(registry: ToolRegistry, tenant: TenantTools): ToolLookup {
  if (tenant.tools.size === 0) return registry;
  return { get: (name) => registry.get(name) ?? tenant.tools.get(name) };
}
