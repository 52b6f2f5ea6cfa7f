import { Injectable } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CancelTaskRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  type CreateTaskResult,
  type RequestId,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { settled } from '@toolgate/toolkit';
import type { McpCaller } from '../mcp-caller.js';
import type { McpTaskCall, McpTaskSupport } from '../mcp-task-support.js';
import { McpTaskService, type McpTaskCaller } from './mcp-task.service.js';

/** The task's owner as the request's API key and endpoint say (never the JSON-RPC body). */
const taskCallerOf = (caller: McpCaller): McpTaskCaller => ({
  tenantId: caller.tenantId,
  agentType: caller.agent.agentType,
  principal: caller.principal,
  locale: caller.locale,
});

/**
 * Approvals through MCP itself: the server's `McpTaskSupport`. A `tools/call` with `params.task`
 * becomes a task stored in the database; `tasks/get`, `tasks/result`, `tasks/list` and
 * `tasks/cancel` are answered by any gateway.
 */
@Injectable()
export class McpTasksSupport implements McpTaskSupport {
  readonly capabilities: ServerCapabilities = {
    tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
  };

  constructor(private readonly tasks: McpTaskService) {}

  install(
    server: Server,
    callerOf: (requestId: RequestId) => McpCaller,
    stopOnDisconnect: (requestId: RequestId) => void = () => undefined,
  ): void {
    const who = (id: RequestId) => taskCallerOf(callerOf(id));
    server.setRequestHandler(GetTaskRequestSchema, (request, extra) =>
      this.tasks.get(who(extra.requestId), request.params.taskId),
    );
    server.setRequestHandler(GetTaskPayloadRequestSchema, (request, extra) => {
      // A client that leaves ends its wait (and, when it was the last, the task's polling).
      stopOnDisconnect(extra.requestId);
      const token = request.params._meta?.progressToken;
      // With a progress token the wait keeps its connection alive (the answer becomes a stream).
      const heartbeat =
        token === undefined
          ? undefined
          : (progress: number, message: string) =>
              void extra
                .sendNotification({
                  method: 'notifications/progress',
                  params: { progressToken: token, progress, message },
                })
                .catch(() => undefined);
      return this.tasks.result(who(extra.requestId), request.params.taskId, extra.signal, heartbeat);
    });
    server.setRequestHandler(ListTasksRequestSchema, (request, extra) =>
      this.tasks.list(who(extra.requestId), request.params?.cursor),
    );
    server.setRequestHandler(CancelTaskRequestSchema, (request, extra) =>
      this.tasks.cancel(who(extra.requestId), request.params.taskId),
    );
  }

  createTask(call: McpTaskCall): Promise<CreateTaskResult> {
    const { caller } = call;
    return this.tasks.create(taskCallerOf(caller), call.toolName, call.task.ttl, (callId, signal) =>
      // The task outlives its HTTP request: only tasks/cancel stops the call, never a gone client.
      settled(() =>
        caller.agent.invoke(call.toolName, call.input, {
          locale: caller.locale,
          callId,
          signal,
          face: 'mcp',
          traceparent: call.traceparent,
          attributes: { keyId: caller.principal.principalId },
        }),
      ),
    );
  }
}
