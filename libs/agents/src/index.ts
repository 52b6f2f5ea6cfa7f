// Every export is public API of @toolgate/agents: the agent types a tenant binds, and how one is invoked.
export { Agent } from './agent.js';
export type { AgentInvokeOptions } from './agent.js';
export { AgentFactory } from './agent-factory.js';
export type { AgentPrincipal, AgentTypeSummary } from './agent-factory.js';
export { AgentsModule } from './agents.module.js';
export {
  metaTools,
  modelToolOf,
  searchDeferred,
  TOOL_CALL,
  TOOL_SEARCH,
  unwrapToolCall,
} from './meta-tools.js';
