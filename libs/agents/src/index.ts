// Public surface of the agents lib.
export { Agent } from './agent.js';
export type { AgentInvokeOptions } from './agent.js';
export { AgentFactory, forSubAgent } from './agent-factory.js';
export type { AgentOptions, AgentPrincipal, AgentTypeSummary } from './agent-factory.js';
export { AgentsModule } from './agents.module.js';
export {
  metaTools,
  modelToolOf,
  searchDeferred,
  TOOL_CALL,
  TOOL_SEARCH,
  unwrapToolCall,
} from './meta-tools.js';
export type { ModelToolSpec } from './meta-tools.js';
