import { Inject, Injectable } from '@nestjs/common';
import { AuditTrail } from '@toolgate/audit';
import { InstanceRegistry, isUniqueViolation } from '@toolgate/database';
import { AgentRunEntity, type StoredRunPrincipal } from '../entities/agent-run.entity.js';
import { RunEvents } from '../events/run-events.js';
import { TenantAuditPolicy } from '@toolgate/tenancy';
import { RUNS_OPTIONS, type RunsOptions } from '../runs.options.js';
import { RunRepository } from '../store/run.repository.js';

/** What a new run is: who asked what of which agent type, on which model, until when. */
export interface NewRun {
  readonly tenantId: string;
  readonly runId: string;
  readonly sessionId: string;
  readonly agentType: string;
  readonly principal: StoredRunPrincipal;
  readonly locale: string;
  /** `provider/model`. */
  readonly model: string;
  readonly input: string;
  readonly deadlineAt: Date;
  /** A sub-agent's run: the run and the call that delegated to it. */
  readonly parent?: { readonly runId: string; readonly callId: string };
}

/**
 * Opens runs, top-level and sub-agent alike: stored leased to this gateway, `run_started` in the
 * tenant's audit trail and first in the run's events.
 */
@Injectable()
export class RunOpener {
  constructor(
    private readonly runs: RunRepository,
    private readonly events: RunEvents,
    private readonly audit: AuditTrail,
    private readonly instances: InstanceRegistry,
    private readonly auditPolicy: TenantAuditPolicy,
    @Inject(RUNS_OPTIONS) private readonly options: RunsOptions,
  ) {}

  /** The new run, or null when a run with its id exists (another drive of a parent stored it first). */
  async open(n: NewRun): Promise<AgentRunEntity | null> {
    const run = await this.store(n);
    if (run) await this.announce(n);
    return run;
  }

  /**
   * `open`'s first half: the run and its first event stored (what a start's admission waits for,
   * RunAdmission); `announce` then records it in the trail.
   */
  async store(n: NewRun): Promise<AgentRunEntity | null> {
    const now = new Date();
    const run = Object.assign(new AgentRunEntity(), {
      tenantId: n.tenantId,
      runId: n.runId,
      sessionId: n.sessionId,
      parentRunId: n.parent?.runId ?? null,
      agentType: n.agentType,
      principal: n.principal,
      principalId: n.principal.principalId,
      locale: n.locale,
      model: n.model,
      status: 'running',
      input: n.input,
      output: null,
      error: null,
      steps: 0,
      inputTokens: 0,
      outputTokens: 0,
      leaseOwner: this.instances.instanceId,
      leaseUntil: new Date(now.getTime() + this.options.leaseMs),
      deadlineAt: n.deadlineAt,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
    } satisfies Partial<AgentRunEntity>);
    const ref = { tenantId: n.tenantId, runId: n.runId };
    try {
      // The run and its first event in one commit.
      await this.runs.insert(run, [
        this.events.first(ref, 'run_started', {
          agentType: n.agentType,
          model: n.model,
          input: n.input,
          sessionId: n.sessionId,
          ...(n.parent ? { parentRunId: n.parent.runId, parentCallId: n.parent.callId } : {}),
        }),
      ]);
    } catch (err) {
      if (n.parent && isUniqueViolation(err)) return null;
      throw err;
    }
    this.events.begin(n.runId);
    return run;
  }

  /** `run_started` in the tenant's audit trail. */
  async announce(n: NewRun): Promise<void> {
    await this.audit.record(
      [
        {
          event: 'run_started',
          tenantId: n.tenantId,
          actor: { type: n.principal.principalType, id: n.principal.principalId },
          agentType: n.agentType,
          sessionId: n.sessionId,
          // The question only when the tenant asks for run text in its trail (then redacted like inputs).
          ...((await this.auditPolicy.recordsRunText(n.tenantId)) ? { input: { question: n.input } } : {}),
          details: {
            runId: n.runId,
            ...(n.parent ? { parentRunId: n.parent.runId } : {}),
            model: n.model,
            steps: 0,
            usage: null,
            outcome: null,
          },
        },
      ],
      `${n.runId}:started`,
    );
  }
}
