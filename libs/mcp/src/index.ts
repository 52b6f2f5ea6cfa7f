// Toolgate as an MCP server: each agent type of a tenant served over Streamable HTTP (issue 11).
export { HttpMultiplexTransport } from './http-multiplex-transport.js';
export type { McpReplyWriter } from './http-multiplex-transport.js';
export type { McpCaller } from './mcp-caller.js';
export {
  CALL_ID_META,
  envelopeResult,
  ERROR_META,
  errorEnvelopeOf,
  toCallToolResult,
} from './mcp-results.js';
export { RpcError } from './rpc-error.js';
export { McpServerService } from './mcp-server.service.js';
export { checkModernMessage, decodeHeader, unsupportedVersion } from './modern-request.js';
export type { McpRefusal, MirroredHeaders } from './modern-request.js';
export {
  isModernVersion,
  MCP_SERVER_INFO,
  MODERN_PROTOCOL_VERSIONS,
  ModernErrorCode,
  ProtocolMeta,
  SERVED_PROTOCOL_VERSIONS,
} from './protocol-revisions.js';
export { MCP_TASK_SUPPORT } from './mcp-task-support.js';
export type { McpTaskCall, McpTaskSupport } from './mcp-task-support.js';
export { CALL_STATUS, McpToolLists, preserializedJson } from './mcp-tool-list.js';
export type { McpToolList, McpToolTarget } from './mcp-tool-list.js';
export { McpModule } from './mcp.module.js';
export { isTraceparent, traceparentOf } from './traceparent.js';
export {
  DEFAULT_MCP_TASKS_OPTIONS,
  MCP_TASKS_MIGRATIONS,
  MCP_TASKS_OPTIONS,
  McpTasks1764700200000,
  McpTaskService,
  McpTasksModule,
} from './tasks/index.js';
export type { McpTaskCaller, McpTasksOptions } from './tasks/index.js';
