import { isAtLeastAsStrict } from '@toolgate/contract';
import { ruleProblems } from '@toolgate/policy';
import type { EffectiveTool } from '@toolgate/toolkit';
import type { BindingTool } from './config/tenant-file.schema.js';
import type { ToolLookup } from './tenant-tool-source.js';

/** The binding field a problem is about. */
export type BindingField = 'name' | 'implementation' | 'timeoutMs' | 'approval' | `rules.${number}.${string}`;

/** A binding entry turned into the tool a caller will use, or the reason it cannot be. */
export type BoundTool =
  { ok: true; tool: EffectiveTool } | { ok: false; problem: string; field: BindingField };

/**
 * Applies one binding entry to the registry under the tighten-only rule: an override may shorten
 * the time limit or add approval, never loosen what the tool declares. Messages name the tool and
 * the field.
 */
export function bindTool(entry: BindingTool, registry: ToolLookup, bindingVersion: number): BoundTool {
  const contract = registry.get(entry.name);
  if (!contract) return { ok: false, field: 'name', problem: `tool "${entry.name}" does not exist` };
  const implementations = [...contract.implementations.keys()];
  let implName = entry.implementation;
  if (!implName) {
    if (implementations.length > 1) {
      return {
        ok: false,
        field: 'implementation',
        problem: `tool "${entry.name}": implementation is required, pick one of ${implementations.join(', ')}`,
      };
    }
    implName = implementations[0]!;
  }
  const implementation = contract.implementations.get(implName);
  if (!implementation) {
    return {
      ok: false,
      field: 'implementation',
      problem: `tool "${entry.name}": implementation "${implName}" does not exist (available: ${implementations.join(', ')})`,
    };
  }
  if (entry.timeoutMs !== undefined && entry.timeoutMs > contract.timeoutMs) {
    return {
      ok: false,
      field: 'timeoutMs',
      problem: `tool "${entry.name}": timeoutMs ${entry.timeoutMs} is looser than the declared ${contract.timeoutMs} ms; a binding may only shorten it`,
    };
  }
  const declared = contract.approval.mode;
  if (entry.approval !== undefined && !isAtLeastAsStrict(entry.approval, declared)) {
    return {
      ok: false,
      field: 'approval',
      problem: `tool "${entry.name}": approval "${entry.approval}" is looser than the declared "${declared}"; a binding may only add approval`,
    };
  }
  if (entry.approval !== undefined && entry.approval !== 'never' && contract.risk.level === 'L0') {
    return {
      ok: false,
      field: 'approval',
      problem: `tool "${entry.name}": an L0 tool is read-only and takes no approval`,
    };
  }
  return {
    ok: true,
    tool: {
      contract,
      implementation,
      timeoutMs: entry.timeoutMs ?? contract.timeoutMs,
      approval: entry.approval ?? declared,
      bindingVersion,
      ...(entry.rules?.length ? { rules: entry.rules } : {}),
      ...(entry.guardrails && (entry.guardrails.input || entry.guardrails.output)
        ? { guardrails: entry.guardrails }
        : {}),
    },
  };
}

/** One problem of a binding: which entry, which field, what is wrong. */
export interface BindingProblem {
  readonly index: number;
  readonly field: BindingField;
  readonly problem: string;
}

/** Checks a whole binding: every entry, and no tool twice. Returns every problem found. */
export function bindingProblems(
  tools: readonly BindingTool[],
  registry: ToolLookup,
  /** The tenant's approver groups, which `require_approval` rules may name. */
  approverGroups: ReadonlySet<string> = new Set(),
): BindingProblem[] {
  const problems: BindingProblem[] = [];
  const seen = new Set<string>();
  tools.forEach((entry, index) => {
    if (seen.has(entry.name))
      problems.push({ index, field: 'name', problem: `tool "${entry.name}" is listed twice` });
    seen.add(entry.name);
    const bound = bindTool(entry, registry, 0);
    if (!bound.ok) problems.push({ index, field: bound.field, problem: bound.problem });
    else if (entry.rules?.length) {
      // Rules compile under ADR 041's limits and only tighten what the tool (as bound) declares.
      const t = bound.tool;
      const ruled = {
        name: entry.name,
        riskLevel: t.contract.risk.level,
        approval: t.approval,
        inputSchema: t.contract.input.jsonSchema,
      };
      for (const p of ruleProblems(entry.rules, ruled, approverGroups))
        problems.push({ index, field: `rules.${p.index}.${p.field}`, problem: p.problem });
    }
  });
  return problems;
}

/** The approver groups a tenant's settings (or file) declare: `approvals.groups`'s names. */
export function approverGroupsOf(
  settings: { readonly [section: string]: unknown } | null | undefined,
): Set<string> {
  const approvals = settings?.approvals as { groups?: Record<string, unknown> } | undefined;
  const groups = approvals?.groups;
  return new Set(groups && typeof groups === 'object' ? Object.keys(groups) : []);
}
