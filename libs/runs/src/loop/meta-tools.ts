// The meta-tools live in the agents lib: runs and the MCP server share one implementation.
export {
  metaTools,
  modelToolOf,
  searchDeferred,
  TOOL_CALL,
  TOOL_SEARCH,
  unwrapToolCall,
} from '@toolgate/agents';
