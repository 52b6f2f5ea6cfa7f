// Public surface of the agents lib.
export { Agent } from './agent.js';
export type { AgentInvokeOptions } from './agent.js';
export { AgentFactory } from './agent-factory.js';
export type { AgentPrincipal, AgentTypeSummary } from './agent-factory.js';
export { AgentsModule } from './agents.module.js';
