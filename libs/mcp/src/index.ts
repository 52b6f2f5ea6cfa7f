// Every export is public API of @toolgate/mcp: Toolgate as an MCP server, each agent type of a
// tenant served over Streamable HTTP (issue 11).

export type { Exchange as McpExchange, McpReplyWriter } from './http-multiplex-transport.js';
export { checkToolCall } from './tool-call-message.js';
export type { McpCaller } from './mcp-caller.js';
export { McpServerService } from './mcp-server.service.js';
export { checkModernMessage, unsupportedVersion } from './modern-request.js';
export type { McpRefusal } from './modern-request.js';
export { isModernVersion, SERVED_PROTOCOL_VERSIONS } from './protocol-revisions.js';
export { preserializedJson } from './mcp-tool-list.js';
export { McpModule } from './mcp.module.js';
export { isTraceparent, traceparentOf } from './traceparent.js';
export {
  DEFAULT_MCP_TASKS_OPTIONS,
  MCP_TASKS_MIGRATIONS,
  McpTaskService,
  McpTasksModule,
} from './tasks/index.js';
export { ERROR_META } from './mcp-results.js';
