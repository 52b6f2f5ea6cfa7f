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
import { ApprovalDecisions, ApprovalService } from '@toolgate/approvals';
import { CallRecords } from '@toolgate/calls';
import { KeyConcurrency } from '@toolgate/quotas';
import {
  ErrorCode,
  errorEnvelope,
  isOk,
  ToolgateError,
  uuidv7,
  type CallPrincipal,
  type ErrorEnvelope,
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
import { TaskPolls } from './task-polls.js';
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
 * The JSON-RPC error of a refusal by a quota or a per-key cap (JSON-RPC has no status codes; 429
 * in the implementation-defined server range), the RATE_LIMITED envelope in `data`
 * (`details.retryAfterSeconds` says when to ask again).
 */
export const RATE_LIMITED_RPC_CODE = -32029;

const rateLimited = (envelope: ErrorEnvelope) =>
  new RpcError(RATE_LIMITED_RPC_CODE, envelope.error, envelope);

/** A call the call quotas refused: it did nothing, and becomes no task. */
const refusedByQuota = (r: ToolCallResult) => !isOk(r.envelope) && r.envelope.code === ErrorCode.RATE_LIMITED;

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
    private readonly calls: CallRecords,
    private readonly approvals: ApprovalService,
    private readonly decisions: ApprovalDecisions,
    private readonly waiters: TaskWaiters,
    private readonly polls: TaskPolls,
    private readonly results: EnvelopeResults,
    private readonly caps: KeyConcurrency,
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

  /**
   * `tools/call` with `params.task`: starts the call, stores the task, answers the task. The call
   * counts against the call quotas like any other (face `mcp`, once); one the quotas refuse
   * becomes no task — the request answers a JSON-RPC error with the RATE_LIMITED envelope.
   */
  async create(
    caller: McpTaskCaller,
    tool: string,
    requestedTtl: number | null | undefined,
    run: McpTaskCallRun,
  ): Promise<CreateTaskResult> {
    const taskId = uuidv7();
    const ref = { tenantId: caller.tenantId, taskId };
    const controller = new AbortController();
    this.running.set(taskKey(ref.tenantId, taskId), controller);
    const called = run(taskId, controller.signal).then(
      (result) => ({ result }),
      (err: Error) => ({ err }),
    );
    // A short wait lets the task's message and the model's immediate response say whether it waits
    // for a person, and keeps a call the quotas refused (answered at once) from being stored.
    const early = await Promise.race([
      called,
      new Promise<null>((r) => setTimeout(() => r(null), SETTLE_WAIT_MS).unref()),
    ]);
    if (early && 'result' in early && refusedByQuota(early.result)) {
      this.running.delete(taskKey(ref.tenantId, taskId));
      throw rateLimited(early.result.envelope as ErrorEnvelope);
    }
    let row: McpTaskEntity;
    try {
      row = await this.tasks.create({
        ...ref,
        principalId: caller.principal.principalId,
        agentType: caller.agentType,
        tool,
        ttlMs: this.ttlFor(requestedTtl),
      });
    } catch (err) {
      this.running.delete(taskKey(ref.tenantId, taskId));
      throw err;
    }
    // The task begins `working` whatever happens (spec); its answer is stored once the row is.
    const answered = called
      .then((outcome) => {
        if ('result' in outcome) return this.results.ofCall(outcome.result, caller.locale);
        this.logger.error(`task ${taskId}: the call failed outside the pipeline`, outcome.err);
        const envelope = { ...errorEnvelope(ErrorCode.INTERNAL_ERROR, caller.locale) };
        return this.results.of(envelope, tool, taskId, caller.locale);
      })
      .then((result) => this.answered(ref, result))
      .finally(() => this.running.delete(taskKey(ref.tenantId, taskId)));
    const outcome = early ? await answered.catch(() => 'answered' as const) : 'running';
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
   * notification (the task's status message) every `heartbeatMs` while it waits. The waiting
   * requests of one task share one database read per poll interval (TaskPolls); `signal` (the
   * client went away, or cancelled the request) ends the wait at once. A key waits in at most
   * `quotas.taskWaitsPerKey` requests at a time on a gateway (more: -32029 with RATE_LIMITED).
   */
  async result(
    caller: McpTaskCaller,
    taskId: string,
    signal?: AbortSignal,
    heartbeat?: TaskHeartbeat,
  ): Promise<CallToolResult> {
    const release = this.waitSlot(caller);
    try {
      return await this.awaitResult(caller, taskId, signal, heartbeat);
    } finally {
      release();
    }
  }

  private async awaitResult(
    caller: McpTaskCaller,
    taskId: string,
    signal: AbortSignal | undefined,
    heartbeat: TaskHeartbeat | undefined,
  ): Promise<CallToolResult> {
    const o = this.options;
    const started = Date.now();
    const deadline = started + (heartbeat ? o.streamedResultWaitMs : o.resultWaitMs);
    const wakeKey = taskKey(caller.tenantId, taskId);
    // Requests of the same key and endpoint may share a reading: the owner's, for the owner.
    const poll = {
      pollKey: `${wakeKey}\u0000${caller.principal.principalId}\u0000${caller.agentType}`,
      wakeKey,
      intervalMs: o.pollIntervalMs,
    };
    let beats = 0;
    // Its own first read: whether the asker may see the task at all, and its answer when it has one.
    let { row, state } = await this.read(caller, taskId);
    for (;;) {
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
      const reading = await this.polls.next(
        poll,
        () => this.read(caller, taskId),
        Math.max(1, until - now),
        signal,
      );
      if (reading) ({ row, state } = reading);
    }
  }

  /** One of the key's tasks/result waits on this gateway, or -32029 RATE_LIMITED. */
  private waitSlot(caller: McpTaskCaller): () => void {
    try {
      return this.caps.take('taskWaitsPerKey', caller.tenantId, caller.principal.principalId);
    } catch (err) {
      if (err instanceof ToolgateError) throw rateLimited(err.toEnvelope(caller.locale));
      throw err;
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
