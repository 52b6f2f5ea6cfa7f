import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MCP_TASK_SUPPORT } from '../mcp-task-support.js';
import { EnvelopeResults } from './envelope-results.js';
import { McpTaskEntity } from './mcp-task.entity.js';
import { McpTaskRepository } from './mcp-task.repository.js';
import { McpTaskService } from './mcp-task.service.js';
import { McpTaskSweep } from './mcp-task.sweep.js';
import { McpTasksSupport } from './mcp-tasks.support.js';
import { DEFAULT_MCP_TASKS_OPTIONS, MCP_TASKS_OPTIONS, type McpTasksOptions } from './mcp-tasks.options.js';
import { TaskPolls } from './task-polls.js';
import { TaskWaiters } from './task-waiters.js';

/**
 * MCP tasks over the database. `McpTasksModule.forRoot({ approvalExpiryMs })` provides
 * `MCP_TASK_SUPPORT` to the MCP server, which takes it when present (global, so the server's module
 * need not know of it); needs the approvals and quotas libs (global) and MCP_TASKS_MIGRATIONS.
 */
@Module({})
export class McpTasksModule {
  static forRoot(options: Partial<McpTasksOptions> = {}): DynamicModule {
    return {
      module: McpTasksModule,
      global: true,
      imports: [TypeOrmModule.forFeature([McpTaskEntity])],
      providers: [
        { provide: MCP_TASKS_OPTIONS, useValue: { ...DEFAULT_MCP_TASKS_OPTIONS, ...options } },
        McpTaskRepository,
        TaskWaiters,
        TaskPolls,
        EnvelopeResults,
        McpTaskService,
        McpTaskSweep,
        McpTasksSupport,
        { provide: MCP_TASK_SUPPORT, useExisting: McpTasksSupport },
      ],
      exports: [MCP_TASK_SUPPORT, McpTaskService],
    };
  }
}
