import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { RefreshingCache } from '@toolgate/database';
import { ToolRegistry, type EffectiveTool } from '@toolgate/toolkit';
import { storedRunSettings, toAgentRunSettings, type AgentRunSettings } from './agent-run-settings.js';
import { bindTool } from './binding-rules.js';
import type { TenantEntity } from './entities/tenant.entity.js';
import { TENANCY_OPTIONS, type TenancyOptions } from './tenancy.options.js';
import {
  lookupWith,
  NO_TENANT_TOOLS,
  TENANT_TOOL_SOURCE,
  type BlockedTool,
  type TenantToolSource,
} from './tenant-tool-source.js';
import { TenantRepository } from './tenant.repository.js';

/** One agent type of one tenant, with its tools resolved against the registry. */
export interface ResolvedAgentType {
  readonly tenantId: string;
  readonly agentType: string;
  readonly description: string;
  readonly version: number;
  /** By contract name, in binding order. */
  readonly tools: ReadonlyMap<string, EffectiveTool>;
  /**
   * Bound tools of the tenant's own (imported) that may not be called now, with why; they are not
   * in `tools`, so nothing lists them, and a call answers their code instead of TOOL_NOT_FOUND.
   */
  readonly blocked?: ReadonlyMap<string, BlockedTool>;
  /** How its runs go (defaults filled). */
  readonly run: AgentRunSettings;
}

/** A tenant's row and its resolved agent types; null for an unknown tenant. */
type TenantSnapshot = {
  readonly tenant: TenantEntity;
  readonly agentTypes: ReadonlyMap<string, ResolvedAgentType>;
} | null;

/**
 * Resolves (tenant, agent type) to its bound tools under their effective policy. Snapshots are
 * cached for `bindingCacheTtlMs`, dropped at once when this process changes a binding, and served
 * stale while the database does not answer — so calls that need no database (L0) go on.
 * Connectors, quotas and the approval gate read the tenant row (connectors, settings) from it too.
 */
@Injectable()
export class BindingResolver {
  private readonly logger = new Logger(BindingResolver.name);
  private readonly snapshots: RefreshingCache<string, TenantSnapshot>;

  constructor(
    private readonly tenants: TenantRepository,
    private readonly registry: ToolRegistry,
    @Inject(TENANCY_OPTIONS) options: TenancyOptions,
    @Optional() @Inject(TENANT_TOOL_SOURCE) private readonly tenantTools?: TenantToolSource,
  ) {
    this.snapshots = new RefreshingCache((tenantId) => this.load(tenantId), {
      ttlMs: options.bindingCacheTtlMs,
      waitOnStaleMs: 200,
      onStale: (tenantId, err) =>
        this.logger.warn(`serving cached bindings of ${tenantId}: ${(err as Error).message}`),
    });
  }

  /** The agent types of a tenant; null when the tenant does not exist. */
  async agentTypes(tenantId: string): Promise<ReadonlyMap<string, ResolvedAgentType> | null> {
    return (await this.snapshots.get(tenantId))?.agentTypes ?? null;
  }

  /** The tenant row (connectors, settings) as cached with its bindings; null when it does not exist. */
  async tenant(tenantId: string): Promise<TenantEntity | null> {
    return (await this.snapshots.get(tenantId))?.tenant ?? null;
  }

  /**
   * One agent type and the tenant row it was resolved with, without a promise when the tenant's
   * snapshot is cached and fresh (the invoke hot path); `undefined` when only a load would answer
   * (then use `agentType`). `binding` is null when the tenant or the agent type does not exist.
   */
  cachedAgentType(
    tenantId: string,
    agentType: string,
  ): { readonly binding: ResolvedAgentType | null; readonly tenant: TenantEntity | null } | undefined {
    const snapshot = this.snapshots.get(tenantId);
    if (snapshot instanceof Promise) return undefined;
    return snapshot
      ? { binding: snapshot.agentTypes.get(agentType) ?? null, tenant: snapshot.tenant }
      : { binding: null, tenant: null };
  }

  /** One agent type, or null when the tenant or the agent type does not exist. */
  async agentType(tenantId: string, agentType: string): Promise<ResolvedAgentType | null> {
    return (await this.agentTypes(tenantId))?.get(agentType) ?? null;
  }

  /**
   * The registry plus the tenant's own tools (blocked ones included), read fresh: what binding
   * edits are checked against.
   */
  async lookupFor(tenantId: string) {
    return lookupWith(this.registry, (await this.tenantTools?.toolsOf(tenantId)) ?? NO_TENANT_TOOLS);
  }

  /** Forgets a tenant's snapshot (bindings, connectors, settings); the next call reads the database. */
  invalidate(tenantId: string): void {
    this.snapshots.invalidate(tenantId);
  }

  private async load(tenantId: string): Promise<TenantSnapshot> {
    const tenant = await this.tenants.findTenant(tenantId);
    if (!tenant) return null;
    const own = (await this.tenantTools?.toolsOf(tenantId)) ?? NO_TENANT_TOOLS;
    const lookup = lookupWith(this.registry, own);
    const agentTypes = new Map<string, ResolvedAgentType>();
    for (const row of await this.tenants.bindingsOf(tenantId)) {
      const tools = new Map<string, EffectiveTool>();
      const blocked = new Map<string, BlockedTool>();
      for (const entry of row.tools) {
        const block = own.blocked.get(entry.name);
        if (block && !this.registry.get(entry.name)) {
          blocked.set(entry.name, block);
          continue;
        }
        const bound = bindTool(entry, lookup, row.version);
        if (bound.ok) tools.set(entry.name, bound.tool);
        else
          this.logger.warn(
            `tenant ${tenantId}, agent type ${row.agentType}: ${bound.problem}; the tool is left out`,
          );
      }
      agentTypes.set(row.agentType, {
        tenantId,
        agentType: row.agentType,
        description: row.description,
        version: row.version,
        tools,
        ...(blocked.size ? { blocked } : {}),
        run: toAgentRunSettings(storedRunSettings(row.run)),
      });
    }
    return { tenant, agentTypes };
  }
}
