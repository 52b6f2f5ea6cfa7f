import type { ToolDefinition } from '../definition/tool-definition.js';

/** A group of `defineTool` objects a module registers; found by the explorer at boot. */
export class ToolDefinitionSet {
  constructor(
    readonly definitions: readonly ToolDefinition[],
    /** Names the set in boot messages. */
    readonly source: string,
  ) {}
}
