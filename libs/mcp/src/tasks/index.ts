// MCP tasks (issue 11, "Approval through MCP itself"): the server's McpTaskSupport over the database.
import { McpTasks1764700200000 } from '../migrations/1764700200000-mcp-tasks.js';

export { McpTasksModule } from './mcp-tasks.module.js';
export { DEFAULT_MCP_TASKS_OPTIONS, MCP_TASKS_OPTIONS } from './mcp-tasks.options.js';
export type { McpTasksOptions } from './mcp-tasks.options.js';
export { McpTaskService } from './mcp-task.service.js';
export type { McpTaskCaller } from './mcp-task.service.js';
export { McpTasks1764700200000 };

/** The MCP tasks' migrations, in order. */
export const MCP_TASKS_MIGRATIONS = [McpTasks1764700200000];
