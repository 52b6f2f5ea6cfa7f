import { Injectable, Optional } from '@nestjs/common';
import { ToolPolicy } from '@toolgate/policy';
import { BindingResolver, TenantConnectors } from '@toolgate/tenancy';
import {
  ErrorCode,
  ToolExecutor,
  ToolgateError,
  type CallPrincipal,
  type MaybePromise,
} from '@toolgate/toolkit';
import type { AgentModelInfo, AgentTypeSummary } from '@toolgate/contract';
import type { AgentModelRef, ResolvedAgentType } from '@toolgate/tenancy';
import { Agent } from './agent.js';

/** Options of `create` when none are given (shared: never written). */
const NO_OPTIONS: AgentOptions = Object.freeze({});
/** A principal as the factory sees it: agent keys may be limited to some agent types. */
export type AgentPrincipal = CallPrincipal & { readonly agentTypes?: readonly string[] | null };

/** How `AgentFactory.create` builds an agent. */
export interface AgentOptions {
  /**
   * The agent runs as a sub-agent (a delegated run): tools with `availableInSubagents: false` are
   * not bound, so it can neither list nor call them, not even by name.
   */
  readonly subAgent?: boolean;
}

/** An agent type a principal may use (CONTRACT.md `GET /v1/agents`). */
export type { AgentTypeSummary };

/**
 * Builds agents the way docs/tool-design-rules.md §A6 describes: the tool list is injected at creation from the
 * tenant's binding, so one agent type serves tenants with different backends.
 */
@Injectable()
export class AgentFactory {
  constructor(
    private readonly bindings: BindingResolver,
    private readonly connectors: TenantConnectors,
    private readonly executor: ToolExecutor,
    // Optional: without the policy lib (a lib's own specs) no rule hides a tool.
    @Optional() private readonly policy?: ToolPolicy,
  ) {}

  /**
   * The agent for (tenant, agent type, principal); NOT_FOUND when the agent type is not the
   * principal's to use. A plain agent when the tenant's bindings are cached (the invoke hot path:
   * every await there is a promise and a microtask per call, ADR 022), a promise while they load.
   */
  create(
    tenantId: string,
    agentType: string,
    principal: AgentPrincipal,
    options: AgentOptions = NO_OPTIONS,
  ): MaybePromise<Agent> {
    const cached = this.bindings.cachedAgentType(tenantId, agentType);
    if (!cached) return this.load(tenantId, agentType, principal, options);
    const binding = this.bound(cached.binding, agentType, principal, options);
    return new Agent(
      binding,
      principal,
      this.executor,
      this.connectors.forTenantRow(tenantId, cached.tenant),
      this.policy,
    );
  }

  /** `create` once the tenant's bindings are read from the database. */
  private async load(
    tenantId: string,
    agentType: string,
    principal: AgentPrincipal,
    options: AgentOptions,
  ): Promise<Agent> {
    const found = this.allowed(principal, agentType)
      ? await this.bindings.agentType(tenantId, agentType)
      : null;
    const binding = this.bound(found, agentType, principal, options);
    return new Agent(
      binding,
      principal,
      this.executor,
      await this.connectors.forTenant(tenantId),
      this.policy,
    );
  }

  /** The binding the agent gets; NOT_FOUND when there is none or it is not the principal's to use. */
  private bound(
    binding: ResolvedAgentType | null | undefined,
    agentType: string,
    principal: AgentPrincipal,
    options: AgentOptions,
  ): ResolvedAgentType {
    if (!binding || !this.allowed(principal, agentType))
      throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `agent type ${agentType}` } });
    return options.subAgent ? forSubAgent(binding) : binding;
  }

  /** The agent types of a tenant the principal may use; `describeModel` says which model each runs on. */
  async agentTypes(
    tenantId: string,
    principal: AgentPrincipal,
    describeModel: (model: AgentModelRef | null) => AgentModelInfo,
  ): Promise<AgentTypeSummary[]> {
    const all = await this.bindings.agentTypes(tenantId);
    return [...(all?.values() ?? [])]
      .filter((a) => this.allowed(principal, a.agentType))
      .map((a) => ({
        agentType: a.agentType,
        description: a.description,
        version: a.version,
        tools: a.tools.size,
        model: describeModel(a.run.model),
      }));
  }

  private allowed(principal: AgentPrincipal, agentType: string): boolean {
    return !principal.agentTypes || principal.agentTypes.includes(agentType);
  }
}

/** The binding without the tools only a top-level agent may use (docs/tool-design-rules.md §4.6). */
export function forSubAgent(binding: ResolvedAgentType): ResolvedAgentType {
  const tools = [...binding.tools].filter(([, t]) => t.contract.availableInSubagents !== false);
  return Object.assign({}, binding, { tools: new Map(tools) });
}
