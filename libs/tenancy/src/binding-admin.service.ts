import { Injectable } from '@nestjs/common';
import { AuditTrail, type AuditActor } from '@toolgate/audit';
import {
  diffBindings,
  withoutUnsetFields,
  type BindingDiff,
  type BindingHistoryEntry,
  type BindingPreview,
  type AgentRunSettingsView,
  type BindingView,
  type EffectiveTool as EffectiveToolView,
  type Issue,
} from '@toolgate/contract';
import { ErrorCode, ToolgateError, type EffectiveTool } from '@toolgate/toolkit';
import { storedRunSettings, subAgentProblems } from './agent-run-settings.js';
import { BindingResolver } from './binding-resolver.js';
import { approverGroupsOf, bindingProblems, bindTool } from './binding-rules.js';
import type { BindingTool } from './config/tenant-file.schema.js';
import type { AgentBindingEntity } from './entities/agent-binding.entity.js';
import { TenantRepository } from './tenant.repository.js';

/**
 * What an admin asks for: the full new tool list of one agent type, against the version read.
 * Description and run settings are kept when not given.
 */
export interface BindingChange {
  readonly version: number;
  readonly tools: readonly BindingTool[];
  readonly description?: string;
  readonly run?: AgentRunSettingsView;
}

export function toBindingView(row: AgentBindingEntity) {
  return {
    agentType: row.agentType,
    description: row.description,
    version: row.version,
    tools: row.tools,
    run: storedRunSettings(row.run),
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
  } satisfies BindingView;
}

function toEffectiveView(tool: EffectiveTool) {
  const c = tool.contract;
  return {
    name: c.name,
    description: c.description,
    implementation: tool.implementation.name,
    riskLevel: c.risk.level,
    dataDomains: c.risk.dataDomains,
    timeoutMs: tool.timeoutMs,
    declaredTimeoutMs: c.timeoutMs,
    approval: tool.approval,
    declaredApproval: c.approval.mode,
  } satisfies EffectiveToolView;
}

/**
 * What is wrong with the sub-agents of one agent type's new run settings, among the tenant's agent
 * types as stored (it may be new itself).
 */
function runProblems(
  rows: readonly AgentBindingEntity[],
  agentType: string,
  run: AgentRunSettingsView,
): Issue[] {
  const graph = new Map(rows.map((r) => [r.agentType, storedRunSettings(r.run).subAgents]));
  graph.set(agentType, run.subAgents);
  return subAgentProblems(graph, agentType).map((p) => ({
    path: `run.subAgents.${p.index}`,
    message: p.problem,
  }));
}

/**
 * Editing bindings from the admin API: read with a version, preview the effective tool set, save
 * under optimistic concurrency and the tighten-only rule, keep history, audit every change.
 */
@Injectable()
export class BindingAdmin {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly resolver: BindingResolver,
    private readonly audit: AuditTrail,
  ) {}

  async list(tenantId: string): Promise<BindingView[]> {
    await this.requireTenant(tenantId);
    return (await this.tenants.bindingsOf(tenantId)).map(toBindingView);
  }

  /** "What would this agent see, under which policy" — and what would change — before saving. */
  async preview(
    tenantId: string,
    agentType: string,
    tools: readonly BindingTool[],
    run?: AgentRunSettingsView,
  ) {
    await this.requireTenant(tenantId);
    const rows = await this.tenants.bindingsOf(tenantId);
    const current = rows.find((b) => b.agentType === agentType);
    const lookup = await this.resolver.lookupFor(tenantId);
    const effective: EffectiveToolView[] = [];
    for (const entry of tools) {
      const bound = bindTool(entry, lookup, 0);
      if (bound.ok) effective.push(toEffectiveView(bound.tool));
    }
    return {
      agentType,
      currentVersion: current?.version ?? 0,
      effective,
      problems: [
        ...bindingProblems(tools, lookup, await this.approverGroups(tenantId)).map((p) => ({
          path: `tools.${p.index}.${p.field}`,
          message: p.problem,
        })),
        ...(run ? runProblems(rows, agentType, run) : []),
      ],
      diff: diffBindings(current?.tools ?? [], tools),
    } satisfies BindingPreview;
  }

  /** Saves a new version; 400 naming tool and field when it loosens a declaration, 409 when stale. */
  async replace(
    tenantId: string,
    agentType: string,
    change: BindingChange,
    actor: AuditActor,
    kind = 'update',
  ): Promise<BindingView> {
    await this.requireTenant(tenantId);
    const rows = await this.tenants.bindingsOf(tenantId);
    const lookup = await this.resolver.lookupFor(tenantId);
    const problems: Issue[] = [
      ...bindingProblems(change.tools, lookup, await this.approverGroups(tenantId)).map((p) => ({
        path: `tools.${p.index}.${p.field}`,
        message: p.problem,
      })),
      ...(change.run ? runProblems(rows, agentType, change.run) : []),
    ];
    if (problems.length) {
      throw new ToolgateError(ErrorCode.INVALID_INPUT, {
        params: { summary: problems.map((p) => p.message).join('; ') },
        details: { issues: problems },
      });
    }
    const current = rows.find((b) => b.agentType === agentType);
    const tools = change.tools.map(withoutUnsetFields);
    const description = change.description ?? current?.description ?? '';
    const run = change.run ?? storedRunSettings(current?.run);
    const diff = diffBindings(current?.tools ?? [], tools);
    const version = await this.tenants.saveBinding(
      { tenantId, agentType, expectedVersion: change.version, description, tools, run, kind, by: actor.id },
      (em, v) =>
        this.audit.recordIn(em, [
          {
            event: 'binding_changed',
            tenantId,
            agentType,
            actor,
            details: { kind, version: v, previousVersion: change.version, diff, tools },
          },
        ]),
    );
    if (version === null) {
      const now = (await this.tenants.bindingsOf(tenantId)).find((b) => b.agentType === agentType);
      throw new ToolgateError(ErrorCode.VERSION_CONFLICT, {
        params: { currentVersion: now?.version ?? 0 },
        details: { currentVersion: now?.version ?? 0, current: now ? toBindingView(now) : null },
      });
    }
    this.resolver.invalidate(tenantId);
    const saved = (await this.tenants.bindingsOf(tenantId)).find((b) => b.agentType === agentType)!;
    return toBindingView(saved);
  }

  async history(tenantId: string, agentType?: string) {
    await this.requireTenant(tenantId);
    const rows = await this.tenants.history(tenantId, agentType);
    // Each version's diff is computed against the version before it of the same agent type.
    const previous = new Map<string, BindingTool[]>();
    const withDiff = new Map<(typeof rows)[number], BindingDiff>();
    for (const r of [...rows].reverse()) {
      withDiff.set(r, diffBindings(previous.get(r.agentType) ?? [], r.tools));
      previous.set(r.agentType, r.tools);
    }
    return rows.map(
      (r) =>
        ({
          agentType: r.agentType,
          version: r.version,
          // Written by this lib only: 'import' from tenant files, 'update' from the admin API.
          kind: r.kind as BindingHistoryEntry['kind'],
          changedBy: r.changedBy,
          changedAt: r.changedAt.toISOString(),
          tools: r.tools,
          diff: withDiff.get(r)!,
        }) satisfies BindingHistoryEntry,
    );
  }

  /** The tenant's approver groups, which its rules may name (issue 26). */
  private async approverGroups(tenantId: string): Promise<Set<string>> {
    return approverGroupsOf((await this.tenants.findTenant(tenantId))?.settings);
  }

  private async requireTenant(tenantId: string): Promise<void> {
    if (!(await this.tenants.findTenant(tenantId))) {
      throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `tenant ${tenantId}` } });
    }
  }
}
