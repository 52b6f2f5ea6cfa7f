import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  ErrorCode as RpcErrorCode,
  RELATED_TASK_META_KEY,
  type CallToolResult,
  type CancelTaskResult,
  type CreateTaskResult,
  type GetTaskResult,
  type ListTasksResult,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';
import { ApprovalDecisions, ApprovalService, CallRecordRepository } from '@toolgate/approvals';
import {
  ErrorCode,
  errorEnvelope,
  uuidv7,
  type CallPrincipal,
  type Locale,
  type ToolCallResult,
} from '@toolgate/toolkit';
import { MCP_TASKS_OPTIONS, type McpTasksOptions } from './mcp-tasks.options.js';
import type { McpTaskEntity } from './mcp-task.entity.js';
import { McpTaskRepository, type McpTaskRef } from './mcp-task.repository.js';
import { EnvelopeResults } from './envelope-results.js';
import { errorEnvelopeOf } from '../mcp-results.js';
import { RpcError } from '../rpc-error.js';
import { isTerminalStatus, taskStateOf, type CallSnapshot, type TaskState } from './task-state.js';
import { taskKey, TaskWaiters } from './task-waiters.js';

/** Who asks: the tenant, principal and agent type come from the agent key and the endpoint, never the body. */
export interface McpTaskCaller {
  readonly tenantId: string;
  readonly agentType: string;
  readonly principal: CallPrincipal;
  readonly locale: Locale;
}

/** Runs the call through the MCP face under `callId`: the executor's whole pipeline, nothing around it. */
export type McpTaskCallRun = (callId: string, signal: AbortSignal) => Promise<ToolCallResult>;

/** Sends one progress notification on a waiting `tasks/result` (its n-th, with a message). */
export type TaskHeartbeat = (n: number, message: string) => void;

/** How long `tools/call` with a task waits for the call to park or answer before it answers the task. */
const SETTLE_WAIT_MS = 1_000;
/** Tasks per `tasks/list` page. */
const PAGE_SIZE = 50;
/** A cursor is a task id: a UUID, checked without a regex. */
const isTaskId = (s: string) =>
  s.length === 36 && [...s].every((c, i) => ([8, 13, 18, 23].includes(i) ? c === '-' : /[0-9a-f]/.test(c)));

const MODEL_IMMEDIATE_RESPONSE = 'io.modelcontextprotocol/model-immediate-response';
/** The status message of a new task, by what its call did within SETTLE_WAIT_MS. */
const CREATED_MESSAGE = {
  parked: 'Waiting for a person to approve the call',
  answered: 'The call has answered; read it with tasks/result',
  running: 'The call is running',
} as const;

/** What the host may hand the model at once while the task goes on (spec, "Creating Tasks"). */
const IMMEDIATE_RESPONSE: Record<Locale, (taskId: string, parked: boolean) => string> = {
  en: (taskId, parked) =>
    parked
      ? `The call ${taskId} is waiting for a person's approval and has not run yet. Its result arrives through the task; do not call the tool again.`
      : `The call ${taskId} runs as a task; its result arrives through the task.`,
  'zh-CN': (taskId, parked) =>
    parked
      ? `调用 ${taskId} 正在等待人工审批，尚未执行。结果将通过任务返回，请不要重复调用。`
      : `调用 ${taskId} 以任务方式执行，结果将通过任务返回。`,
};

const CANCEL_REASON = 'cancelled by its requester (MCP tasks/cancel)';

const notFound = () => new RpcError(RpcErrorCode.InvalidParams, 'Failed to retrieve task: Task not found');

/**
 * MCP tasks (2025-11-25, experimental) over the database: one `mcp_tasks` row per task-augmented
 * `tools/call` (task id = call id), the call's state read from its call record, so any gateway
 * answers `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel`. A task is visible only to
 * the key that created it, through the endpoint of its agent type: any other asker gets "not found".
 */
@Injectable()
export class McpTaskService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(McpTaskService.name);
  /** Calls of tasks running in this process, to abort on `tasks/cancel`. */
  private readonly running = new Map<string, AbortController>();
  private unsubscribe?: () => void;

  constructor(
    private readonly tasks: McpTaskRepository,
    private readonly calls: CallRecordRepository,
    private readonly approvals: ApprovalService,
    private readonly decisions: ApprovalDecisions,
    private readonly waiters: TaskWaiters,
    private readonly results: EnvelopeResults,
    @Inject(MCP_TASKS_OPTIONS) private readonly options: McpTasksOptions,
  ) {}

  onModuleInit(): void {
    // A decision taken here ends the wait of this gateway's tasks/result at once (the approved
    // call has run by the time it is announced).
    this.unsubscribe = this.decisions.subscribe((d) => this.waiters.wake(taskKey(d.tenantId, d.callId)));
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  /** `tools/call` with `params.task`: stores the task, starts the call, answers the task. */
  async create(
    caller: McpTaskCaller,
    tool: string,
    requestedTtl: number | null | undefined,
    run: McpTaskCallRun,
  ): Promise<CreateTaskResult> {
    const taskId = uuidv7();
    const ref = { tenantId: caller.tenantId, taskId };
    const row = await this.tasks.create({
      ...ref,
      principalId: caller.principal.principalId,
      agentType: caller.agentType,
      tool,
      ttlMs: this.ttlFor(requestedTtl),
    });
    const controller = new AbortController();
    this.running.set(taskKey(ref.tenantId, taskId), controller);
    const answered = run(taskId, controller.signal)
      .then((result) => this.results.ofCall(result, caller.locale))
      .catch((err: Error) => {
        this.logger.error(`task ${taskId}: the call failed outside the pipeline`, err);
        const envelope = { ...errorEnvelope(ErrorCode.INTERNAL_ERROR, caller.locale) };
        return this.results.of(envelope, tool, taskId, caller.locale);
      })
      .then((result) => this.answered(ref, result))
      .finally(() => this.running.delete(taskKey(ref.tenantId, taskId)));
    // The task begins `working` whatever happens (spec); a short wait only lets its message and the
    // model's immediate response say whether it waits for a person.
    const outcome = await Promise.race([
      answered.catch(() => 'answered' as const),
      new Promise<'running'>((r) => setTimeout(() => r('running'), SETTLE_WAIT_MS).unref()),
    ]);
    return {
      task: this.toTask(row, {
        status: 'working',
        statusMessage: CREATED_MESSAGE[outcome],
        lastUpdatedAt: row.createdAt,
      }),
      _meta: { [MODEL_IMMEDIATE_RESPONSE]: IMMEDIATE_RESPONSE[caller.locale](taskId, outcome === 'parked') },
    };
  }

  async get(caller: McpTaskCaller, taskId: string): Promise<GetTaskResult> {
    const { row, state } = await this.read(caller, taskId);
    return this.toTask(row, state);
  }

  /**
   * Blocks until the task ends, then answers what the call answered. Bounded: `resultWaitMs`, or
   * `streamedResultWaitMs` when the client gave a progress token, which then gets a progress
   * notification (the task's status message) every `heartbeatMs` while it waits.
   */
  async result(
    caller: McpTaskCaller,
    taskId: string,
    signal?: AbortSignal,
    heartbeat?: TaskHeartbeat,
  ): Promise<CallToolResult> {
    const o = this.options;
    const started = Date.now();
    const deadline = started + (heartbeat ? o.streamedResultWaitMs : o.resultWaitMs);
    const key = taskKey(caller.tenantId, taskId);
    let beats = 0;
    for (;;) {
      const { row, state } = await this.read(caller, taskId);
      if (state.outcome) return this.finalResult(row, state, caller.locale);
      const now = Date.now();
      if (now >= deadline || signal?.aborted) {
        throw new RpcError(
          RpcErrorCode.RequestTimeout,
          `Task ${taskId} is still working (${state.statusMessage}); call tasks/result again or poll tasks/get`,
        );
      }
      const nextBeat = started + (beats + 1) * o.heartbeatMs;
      if (heartbeat && now >= nextBeat) heartbeat(++beats, state.statusMessage);
      const until = Math.min(deadline, heartbeat ? started + (beats + 1) * o.heartbeatMs : deadline);
      await this.waiters.wait(key, Math.max(1, Math.min(until - now, o.pollIntervalMs)), signal);
    }
  }

  async list(caller: McpTaskCaller, cursor: string | undefined): Promise<ListTasksResult> {
    if (cursor !== undefined && !isTaskId(cursor))
      throw new RpcError(RpcErrorCode.InvalidParams, 'Invalid cursor');
    const now = new Date();
    const owner = {
      tenantId: caller.tenantId,
      principalId: caller.principal.principalId,
      agentType: caller.agentType,
    };
    const rows = await this.tasks.listOwned(owner, cursor, PAGE_SIZE, now);
    const calls = await this.calls.findMany(
      rows.filter((r) => r.status === 'working').map((r) => ({ tenantId: r.tenantId, callId: r.taskId })),
    );
    const byId = new Map(calls.map((c) => [c.callId, c]));
    const tasks = rows.map((r) =>
      this.toTask(r, taskStateOf(r, byId.get(r.taskId) ?? null, now, this.options.lostAfterMs)),
    );
    return { tasks, ...(rows.length === PAGE_SIZE ? { nextCursor: rows[rows.length - 1]!.taskId } : {}) };
  }

  /**
   * Withdraws a pending approval (the call will never run), or aborts a call running here; a call
   * already approved and running elsewhere runs to its end (the audit trail says so), the task
   * reads `cancelled` all the same, as the spec requires.
   */
  async cancel(caller: McpTaskCaller, taskId: string): Promise<CancelTaskResult> {
    const ref = { tenantId: caller.tenantId, taskId };
    const { state, call } = await this.read(caller, taskId);
    if (isTerminalStatus(state.status)) throw this.terminal(state);
    if (call?.status === 'pending_approval' && call.approvalId) {
      await this.approvals.withdraw(call.approvalId, caller.principal, CANCEL_REASON);
    }
    this.running.get(taskKey(ref.tenantId, taskId))?.abort();
    if (!(await this.tasks.cancel(ref))) {
      const again = await this.read(caller, taskId);
      if (isTerminalStatus(again.state.status)) throw this.terminal(again.state);
    }
    this.waiters.wake(taskKey(ref.tenantId, taskId));
    const after = await this.read(caller, taskId);
    return this.toTask(after.row, after.state);
  }

  /** The call answered: a parked call's task follows its call record; any other answer is stored. */
  private async answered(ref: McpTaskRef, result: CallToolResult): Promise<'parked' | 'answered'> {
    const parked = errorEnvelopeOf(result)?.code === ErrorCode.APPROVAL_PENDING;
    if (!parked) {
      await this.tasks
        .settle(ref, result as Record<string, unknown>)
        .catch((err: Error) => this.logger.error(`task ${ref.taskId}: storing its result failed`, err));
    }
    this.waiters.wake(taskKey(ref.tenantId, ref.taskId));
    return parked ? 'parked' : 'answered';
  }

  private async read(
    caller: McpTaskCaller,
    taskId: string,
  ): Promise<{ row: McpTaskEntity; state: TaskState; call: CallSnapshot | null }> {
    if (typeof taskId !== 'string' || !isTaskId(taskId)) throw notFound();
    const ref = { tenantId: caller.tenantId, taskId };
    const row = await this.tasks.findOwned(ref, caller.principal.principalId);
    const now = new Date();
    if (!row || row.agentType !== caller.agentType || row.expiresAt.getTime() <= now.getTime())
      throw notFound();
    const call =
      row.status === 'settled' ? null : await this.calls.find({ tenantId: ref.tenantId, callId: taskId });
    return { row, call, state: taskStateOf(row, call, now, this.options.lostAfterMs) };
  }

  private finalResult(row: McpTaskEntity, state: TaskState, locale: Locale): CallToolResult {
    const outcome = state.outcome!;
    if (outcome.kind === 'none') {
      throw new RpcError(
        RpcErrorCode.InvalidRequest,
        `Task ${row.taskId} was cancelled before its call answered`,
      );
    }
    const result =
      outcome.kind === 'result'
        ? (outcome.result as CallToolResult)
        : this.results.of(outcome.envelope, row.tool, row.taskId, locale);
    return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId: row.taskId } } };
  }

  private terminal(state: TaskState): RpcError {
    return new RpcError(RpcErrorCode.InvalidParams, `Cannot cancel task in terminal status: ${state.status}`);
  }

  /** At least as long as an approval may take plus time to read the result; at most `maxTtlMs`. */
  private ttlFor(requested: number | null | undefined): number {
    const floor = this.options.approvalExpiryMs + this.options.resultRetentionMs;
    const asked = typeof requested === 'number' && Number.isFinite(requested) ? requested : 0;
    return Math.min(Math.max(asked, floor), this.options.maxTtlMs);
  }

  private toTask(
    row: McpTaskEntity,
    state: Pick<TaskState, 'status' | 'statusMessage' | 'lastUpdatedAt'>,
  ): Task {
    return {
      taskId: row.taskId,
      status: state.status,
      statusMessage: state.statusMessage,
      createdAt: row.createdAt.toISOString(),
      lastUpdatedAt: state.lastUpdatedAt.toISOString(),
      ttl: Number(row.ttlMs),
      pollInterval: this.options.pollIntervalMs,
    };
  }
}
