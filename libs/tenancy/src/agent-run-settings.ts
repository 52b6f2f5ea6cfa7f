import { DEFAULT_AGENT_RUN_SETTINGS, type AgentRunSettingsView } from '@toolgate/contract';

/** A model at a provider; structurally `@toolgate/models`' ModelRef (tenancy does not depend on it). */
export interface AgentModelRef {
  readonly provider: string;
  readonly model: string;
}

/** How an agent type's runs go: which model, which prompt, which limits, which sub-agents. */
export interface AgentRunSettings {
  /** null: the platform default model. */
  readonly model: AgentModelRef | null;
  /** The system prompt; '' when none. */
  readonly instructions: string;
  readonly maxSteps: number;
  readonly deadlineMs: number;
  readonly maxParallelToolCalls: number;
  /** Tokens per run; null: unlimited. */
  readonly tokenBudget: number | null;
  /** Agent types of the same tenant it may delegate to (validated to exist, not itself, no cycle). */
  readonly subAgents: readonly string[];
}

/** The run settings of a stored row; rows saved before agent types had them take the defaults. */
export function storedRunSettings(run: AgentRunSettingsView | null | undefined): AgentRunSettingsView {
  return { ...DEFAULT_AGENT_RUN_SETTINGS, ...run };
}

/** The contract's shape (model `{provider, name}`, as files write it) as the run loop reads it. */
export function toAgentRunSettings(view: AgentRunSettingsView): AgentRunSettings {
  return {
    model: view.model ? { provider: view.model.provider, model: view.model.name } : null,
    instructions: view.instructions,
    maxSteps: view.maxSteps,
    deadlineMs: view.deadlineMs,
    maxParallelToolCalls: view.maxParallelToolCalls,
    tokenBudget: view.tokenBudget,
    subAgents: [...view.subAgents],
  };
}

/** One wrong sub-agent reference: the agent type, the index in its `subAgents`, what is wrong. */
export interface SubAgentProblem {
  readonly agentType: string;
  readonly index: number;
  readonly problem: string;
}

/** The chain `from → … → to` along sub-agent references, or null when `to` is not reachable. */
function pathBetween(
  graph: ReadonlyMap<string, readonly string[]>,
  from: string,
  to: string,
): string[] | null {
  const seen = new Set<string>();
  const walk = (at: string): string[] | null => {
    if (at === to) return [at];
    if (seen.has(at)) return null;
    seen.add(at);
    for (const next of graph.get(at) ?? []) {
      const rest = walk(next);
      if (rest) return [at, ...rest];
    }
    return null;
  };
  return walk(from);
}

/**
 * The sub-agent references of a tenant's agent types (agent type → its `subAgents`) that are wrong:
 * an unknown agent type, itself, a repeat, or one that leads back to the delegating agent type (a
 * delegation cycle never ends by itself). `only` limits the check to one agent type's references.
 */
export function subAgentProblems(
  graph: ReadonlyMap<string, readonly string[]>,
  only?: string,
): SubAgentProblem[] {
  const problems: SubAgentProblem[] = [];
  for (const [agentType, subAgents] of graph) {
    if (only !== undefined && agentType !== only) continue;
    subAgents.forEach((sub, index) => {
      const problem =
        sub === agentType
          ? 'an agent type cannot be its own sub-agent'
          : !graph.has(sub)
            ? `"${sub}" is not an agent type of this tenant`
            : subAgents.indexOf(sub) !== index
              ? `"${sub}" is listed twice`
              : cycleThrough(graph, agentType, sub);
      if (problem) problems.push({ agentType, index, problem });
    });
  }
  return problems;
}

function cycleThrough(graph: ReadonlyMap<string, readonly string[]>, agentType: string, sub: string) {
  const back = pathBetween(graph, sub, agentType);
  return back ? `delegating to "${sub}" leads back: ${[agentType, ...back].join(' → ')}` : null;
}
