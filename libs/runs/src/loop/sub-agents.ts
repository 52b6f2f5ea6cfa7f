import { Inject, Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { RunEventType } from '@toolgate/contract';
import type { ModelTool } from '@toolgate/models';
import { BindingResolver } from '@toolgate/tenancy';
import { errorEnvelope, ErrorCode, type ErrorEnvelope, type Locale } from '@toolgate/toolkit';
import { AgentRunEntity } from '../entities/agent-run.entity.js';
import type { RunToolCallEntity } from '../entities/run-tool-call.entity.js';
import { RunEvents } from '../events/run-events.js';
import { RUNS_OPTIONS, type RunsOptions } from '../runs.options.js';
import { RunRepository, type RunRef } from '../store/run.repository.js';
import { RunDrives } from './run-drives.js';
import { RunOpener } from './run-opener.js';
import { RUN_MODEL_SOURCE, type RunModelSource } from './run-models.js';
import { modelLabel, type AgentRunSettings } from './run-settings.js';
import {
  childPrincipal,
  childRunId,
  childSessionId,
  delegatedAgentType,
  delegateResult,
  delegateTask,
  delegateTool,
  delegateToolName,
  ENDED_RUN,
  purposeOf,
  type DelegateResult,
} from './sub-agent-rules.js';

/** An approval a run waits for, possibly in one of its sub-agents. */
export interface PendingApproval {
  readonly approvalId: string;
  readonly callId: string;
  readonly tool: string;
}

/** The delegate tools of a run: what the model sees, and which agent type each name delegates to. */
export interface DelegateTools {
  readonly tools: ModelTool[];
  readonly targets: ReadonlyMap<string, string>;
}

/** One delegate call of a parent run being driven. */
export interface DelegateCall {
  readonly parent: AgentRunEntity;
  readonly call: Pick<RunToolCallEntity, 'callId' | 'input'>;
  readonly agentType: string;
  /** The parent drive's signal: waiting for the child stops when it fires (the child goes on). */
  readonly signal: AbortSignal;
  /** Emits an event on the parent's stream. */
  readonly emit: (type: RunEventType, data: Record<string, unknown>) => void;
}

/** How a delegate call stands: ended (the call's outcome and the child's usage), parked, or stopped. */
export type DelegateOutcome =
  | (DelegateResult & {
      readonly kind: 'ended';
      readonly usage: { inputTokens: number; outputTokens: number };
    })
  | { readonly kind: 'parked'; readonly childRunId: string; readonly approvals: PendingApproval[] }
  | { readonly kind: 'stopped' };

const NO_USAGE = { inputTokens: 0, outputTokens: 0 };

/**
 * Sub-agents (docs/tool-design-rules.md, seed 000): a `delegate_to_<agentType>` call of a run
 * starts a child run of that agent type (parentRunId: the run; input: the task) and waits for it.
 * The child's id derives from the call id, so however often the parent is resumed or taken over,
 * it finds the child it started and never starts a second one. The child is driven like any run
 * (its own lease, events, audit); while it waits for an approval, the parent's call waits too and
 * the parent parks; once the child has ended, the parent's call takes its outcome.
 */
@Injectable()
export class SubAgents {
  constructor(
    private readonly runs: RunRepository,
    private readonly events: RunEvents,
    private readonly bindings: BindingResolver,
    private readonly moduleRef: ModuleRef,
    private readonly opener: RunOpener,
    @Inject(RUN_MODEL_SOURCE) private readonly models: RunModelSource,
    @Inject(RUNS_OPTIONS) private readonly options: RunsOptions,
  ) {}

  /**
   * The drives of this gateway (RunDriver, which drives the loop that uses this): resolved when
   * first needed, not at construction.
   */
  private get driver(): RunDrives {
    return this.moduleRef.get(RunDrives, { strict: false });
  }

  /** One `delegate_to_<agentType>` tool per sub-agent of the run's agent type. */
  async tools(tenantId: string, settings: AgentRunSettings, locale: Locale): Promise<DelegateTools> {
    const tools: ModelTool[] = [];
    const targets = new Map<string, string>();
    for (const agentType of settings.subAgents) {
      const name = delegateToolName(agentType);
      const sub = await this.bindings.agentType(tenantId, agentType);
      if (!name || !sub) continue;
      tools.push(delegateTool(name, agentType, purposeOf(sub.description, sub.run.instructions), locale));
      targets.set(name, agentType);
    }
    return { tools, targets };
  }

  /**
   * Brings a delegate call as far as it goes: starts its child if there is none yet, then follows
   * the child until it ends or parks (driving it here when no other gateway does).
   */
  async delegate(req: DelegateCall): Promise<DelegateOutcome> {
    const locale = req.parent.locale as Locale;
    const ref = { tenantId: req.parent.tenantId, runId: childRunId(req.call.callId) };
    let child = await this.runs.find(ref);
    let fresh = false;
    if (!child) {
      const task = delegateTask(req.call.input, locale);
      if (typeof task !== 'string') return failed(task);
      const started = await this.start(req, ref, task);
      if ('code' in started) return failed(started);
      ({ child, fresh } = started);
    }
    if (fresh || child.status === 'running')
      req.emit('tool_partial', {
        callId: req.call.callId,
        label: delegationLabel(req.agentType, child.runId, locale),
        phase: 'start',
        runId: child.runId,
      });
    for (let first = true; ; first = false) {
      if (req.signal.aborted) return { kind: 'stopped' };
      if (ENDED_RUN.has(child.status)) {
        req.emit('tool_partial', {
          callId: req.call.callId,
          label: delegationLabel(req.agentType, child.runId, locale),
          phase: 'complete',
          runId: child.runId,
        });
        return {
          kind: 'ended',
          ...delegateResult(child, locale),
          usage: { inputTokens: child.inputTokens, outputTokens: child.outputTokens },
        };
      }
      if (child.status === 'awaiting_approval')
        return { kind: 'parked', childRunId: child.runId, approvals: await this.pendingApprovals(child) };
      await this.follow(child, fresh && first, req.signal);
      child = (await this.runs.find(ref))!;
    }
  }

  /** Waits for a running child: its drive here, or (driven elsewhere) its next event or a poll. */
  private async follow(child: AgentRunEntity, ours: boolean, signal: AbortSignal): Promise<void> {
    const driver = this.driver;
    const ref = { tenantId: child.tenantId, runId: child.runId };
    let done = driver.current(child.runId);
    if (!done && (ours || (await this.runs.acquire(ref, driver.owner, this.options.leaseMs, 'running'))))
      done = driver.drive(ours ? child : ((await this.runs.find(ref)) ?? child));
    const stopped = new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await Promise.race([done ?? this.events.wait(child.runId, this.options.pollMs, signal), stopped]);
  }

  /** Stores the child run, or finds it when another drive of the parent stored it first. */
  private async start(
    req: DelegateCall,
    ref: RunRef,
    task: string,
  ): Promise<{ child: AgentRunEntity; fresh: boolean } | ErrorEnvelope> {
    const { parent, agentType } = req;
    const locale = parent.locale as Locale;
    const sub = await this.bindings.agentType(parent.tenantId, agentType);
    if (!sub) return errorEnvelope(ErrorCode.NOT_FOUND, locale, { resource: `agent type ${agentType}` });
    const model = modelLabel(this.models.resolve(sub.run.model));
    const child = await this.opener.open({
      ...ref,
      sessionId: childSessionId(ref.runId),
      agentType,
      principal: childPrincipal(parent.principal, agentType),
      locale: parent.locale,
      model,
      input: task,
      // A child never outlives its parent's deadline.
      deadlineAt: new Date(Math.min(Date.now() + sub.run.deadlineMs, parent.deadlineAt.getTime())),
      parent: { runId: parent.runId, callId: req.call.callId },
    });
    if (!child) return { child: (await this.runs.find(ref))!, fresh: false };
    return { child, fresh: true };
  }

  /** The approvals a parked run waits for, its own and those of the sub-agents it waits for. */
  async pendingApprovals(run: AgentRunEntity): Promise<PendingApproval[]> {
    if (run.status !== 'awaiting_approval') return [];
    const out: PendingApproval[] = [];
    for (const c of await this.runs.calls(run)) {
      if (c.status !== 'pending_approval') continue;
      if (c.approvalId) out.push({ approvalId: c.approvalId, callId: c.callId, tool: c.tool });
      else if (delegatedAgentType(c.tool)) {
        const child = await this.runs.find({ tenantId: run.tenantId, runId: childRunId(c.callId) });
        if (child) out.push(...(await this.pendingApprovals(child)));
      }
    }
    return out;
  }

  /** The child runs a run started (found through its delegate calls: their ids name the children). */
  async children(ref: RunRef): Promise<AgentRunEntity[]> {
    const out: AgentRunEntity[] = [];
    for (const c of await this.runs.calls(ref)) {
      if (!delegatedAgentType(c.tool)) continue;
      const child = await this.runs.find({ tenantId: ref.tenantId, runId: childRunId(c.callId) });
      if (child?.parentRunId === ref.runId) out.push(child);
    }
    return out;
  }
}

/**
 * Whether a parked call of a run is a delegate call whose child has ended (true), one whose child
 * still works or waits (false), or not a delegate call at all (null: an approval decides it).
 */
export async function delegateSettled(
  runs: RunRepository,
  tenantId: string,
  call: Pick<RunToolCallEntity, 'tool' | 'callId' | 'approvalId'>,
): Promise<boolean | null> {
  if (call.approvalId || !delegatedAgentType(call.tool)) return null;
  const child = await runs.find({ tenantId, runId: childRunId(call.callId) });
  // No child yet (a crash between parking and storing it cannot leave one, but be safe): settle starts it.
  return !child || ENDED_RUN.has(child.status);
}

const failed = (envelope: ErrorEnvelope): DelegateOutcome => ({
  kind: 'ended',
  status: 'failed',
  envelope,
  modelText: JSON.stringify(envelope),
  usage: NO_USAGE,
});

function delegationLabel(agentType: string, runId: string, locale: Locale): string {
  return locale === 'zh-CN' ? `子代理 ${agentType}（${runId}）` : `Sub-agent ${agentType} (${runId})`;
}
