import type { ConnectorDefinition } from '../definition/define-connector.js';
import type { ToolDefinition } from '../definition/tool-definition.js';

/** A group of tool definitions (`contract.implement(...)`) and connectors a module registers; found by the explorer at boot. */
export class ToolDefinitionSet {
  constructor(
    readonly definitions: readonly ToolDefinition[],
    readonly connectors: readonly ConnectorDefinition[],
    /** Names the set in boot messages. */
    readonly source: string,
  ) {}
}
