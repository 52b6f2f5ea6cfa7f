import { Injectable, Optional } from '@nestjs/common';
import { ToolPolicy } from '@toolgate/policy';
import { BindingResolver, TenantConnectors } from '@toolgate/tenancy';
import { ErrorCode, ToolExecutor, ToolgateError, type CallPrincipal } from '@toolgate/toolkit';
import type { AgentModelInfo, AgentTypeSummary } from '@toolgate/contract';
import type { AgentModelRef, ResolvedAgentType } from '@toolgate/tenancy';
import { Agent } from './agent.js';

const NOTHING_HIDDEN: ReadonlySet<string> = new Set();

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
   * The tools the principal's rules refuse whatever the input, decided when a listing asks (never
   * on the invoke path): hidden from every listing, still answering POLICY_DENIED by name.
   */
  private hiddenFor(binding: ResolvedAgentType, principal: AgentPrincipal): () => ReadonlySet<string> {
    const policy = this.policy;
    return policy
      ? () => policy.hiddenTools(binding.tenantId, binding.agentType, binding.tools.values(), principal)
      : () => NOTHING_HIDDEN;
  }

  /** The agent for (tenant, agent type, principal); NOT_FOUND when the agent type is not the principal's to use. */
  async create(
    tenantId: string,
    agentType: string,
    principal: AgentPrincipal,
    options: AgentOptions = {},
  ): Promise<Agent> {
    const binding = this.allowed(principal, agentType)
      ? await this.bindings.agentType(tenantId, agentType)
      : null;
    if (!binding)
      throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `agent type ${agentType}` } });
    const bound = options.subAgent ? forSubAgent(binding) : binding;
    return new Agent(
      bound,
      principal,
      this.executor,
      await this.connectors.forTenant(tenantId),
      this.hiddenFor(bound, principal),
    );
  }

  /**
   * `create` without a promise when the tenant's bindings are cached (the invoke hot path: every
   * await there is a promise and a microtask per call); otherwise `create`'s promise. Throws
   * (synchronously) what `create` rejects with.
   */
  createNow(tenantId: string, agentType: string, principal: AgentPrincipal): Agent | Promise<Agent> {
    const cached = this.bindings.cachedAgentType(tenantId, agentType);
    if (!cached) return this.create(tenantId, agentType, principal);
    const binding = this.allowed(principal, agentType) ? cached.binding : null;
    if (!binding)
      throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `agent type ${agentType}` } });
    return new Agent(
      binding,
      principal,
      this.executor,
      this.connectors.forTenantRow(tenantId, cached.tenant),
      this.hiddenFor(binding, principal),
    );
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
  return { ...binding, tools: new Map(tools) };
}
