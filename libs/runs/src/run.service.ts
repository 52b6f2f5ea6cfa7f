import { Inject, Injectable } from '@nestjs/common';
import { AgentFactory, type AgentPrincipal } from '@toolgate/agents';
import { ApprovalService } from '@toolgate/approvals';
import { AuditTrail } from '@toolgate/audit';
import type { RunListQuery, RunPage, RunView, SessionRuns, StartRunBody } from '@toolgate/contract';
import { errorEnvelope, ErrorCode, ToolgateError, type Locale } from '@toolgate/toolkit';
import { AgentRunEntity, type StoredRunPrincipal } from './entities/agent-run.entity.js';
import { RunEvents } from './events/run-events.js';
import { RunDriver } from './loop/run-driver.js';
import { newRunId, newSessionId } from './loop/run-ids.js';
import { usageOf, type DriveOutcome } from './loop/run-loop.js';
import { RUN_MODEL_SOURCE, type RunModelSource } from './loop/run-models.js';
import { modelLabel, runSettingsOf } from './loop/run-settings.js';
import { RunRepository, type RunRef } from './store/run.repository.js';
import { toRunView } from './store/run-view.js';

/** A reader or starter of runs: agent keys may be limited to some agent types. */
export type RunPrincipal = AgentPrincipal;

/** Roles that read every run of their tenant (platform admins: of every tenant). */
const TENANT_READERS = new Set(['tenant_admin', 'auditor']);

/** A run just started: its id, and the drive under way (resolves when it finishes or parks). */
export interface StartedRun {
  readonly ref: RunRef;
  readonly done: Promise<DriveOutcome>;
}

/**
 * Runs as the REST API offers them: start, read, list, cancel. Who reads a run: its tenant only
 * (others get 404, as for a run that does not exist), the agent key that started it, the tenant's
 * admins and auditors, platform admins.
 */
@Injectable()
export class RunService {
  constructor(
    private readonly runs: RunRepository,
    private readonly events: RunEvents,
    private readonly driver: RunDriver,
    private readonly agents: AgentFactory,
    private readonly audit: AuditTrail,
    private readonly approvals: ApprovalService,
    @Inject(RUN_MODEL_SOURCE) private readonly models: RunModelSource,
  ) {}

  /** Stores a new run (NOT_FOUND for an agent type the principal may not use) and starts driving it. */
  async start(
    principal: RunPrincipal,
    agentType: string,
    body: StartRunBody,
    locale: Locale,
  ): Promise<StartedRun> {
    const tenantId = principal.tenantId!;
    const agent = await this.agents.create(tenantId, agentType, principal);
    const settings = runSettingsOf(agent.binding);
    const model = modelLabel(this.models.resolve(settings.model));
    const now = new Date();
    const run = Object.assign(new AgentRunEntity(), {
      tenantId,
      runId: newRunId(),
      sessionId: body.sessionId ?? newSessionId(),
      parentRunId: null,
      agentType,
      principal: storedPrincipal(principal),
      principalId: principal.principalId,
      locale,
      model,
      status: 'running',
      input: body.input,
      output: null,
      error: null,
      steps: 0,
      inputTokens: 0,
      outputTokens: 0,
      leaseOwner: this.driver.owner,
      leaseUntil: new Date(now.getTime() + this.driver.leaseMs),
      deadlineAt: new Date(now.getTime() + settings.deadlineMs),
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
    } satisfies Partial<AgentRunEntity>);
    await this.runs.insert(run);
    const ref = { tenantId, runId: run.runId };
    this.events.begin(run.runId);
    await this.audit.record(
      [
        {
          event: 'run_started',
          tenantId,
          actor: { type: principal.principalType, id: principal.principalId },
          agentType,
          sessionId: run.sessionId,
          details: { runId: run.runId, model, steps: 0, usage: null, outcome: null },
        },
      ],
      `${run.runId}:started`,
    );
    await this.events.emit(ref, 'run_started', {
      agentType,
      model,
      input: body.input,
      sessionId: run.sessionId,
    });
    return { ref, done: this.driver.drive(run, { newSession: body.sessionId === undefined }) };
  }

  async view(reader: RunPrincipal, runId: string): Promise<RunView> {
    return this.viewOf(await this.visible(reader, runId));
  }

  async viewOf(run: AgentRunEntity): Promise<RunView> {
    const ref = { tenantId: run.tenantId, runId: run.runId };
    return toRunView(run, await this.runs.steps(ref), await this.runs.calls(ref));
  }

  /** The run as the reader may see it; NOT_FOUND otherwise. */
  async visible(reader: RunPrincipal, runId: string): Promise<AgentRunEntity> {
    const platform = reader.role === 'platform_admin';
    const run = platform
      ? await this.runs.findInAnyTenant(runId)
      : reader.tenantId
        ? await this.runs.find({ tenantId: reader.tenantId, runId })
        : null;
    if (!run || !this.mayRead(reader, run))
      throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `run ${runId}` } });
    return run;
  }

  private mayRead(reader: RunPrincipal, run: AgentRunEntity): boolean {
    if (reader.role === 'platform_admin') return true;
    if (run.tenantId !== reader.tenantId) return false;
    if (TENANT_READERS.has(reader.role ?? '')) return true;
    return reader.role === 'agent' && run.principalId === reader.principalId;
  }

  async list(reader: RunPrincipal, query: RunListQuery): Promise<RunPage> {
    const platform = reader.role === 'platform_admin';
    if (!platform && !TENANT_READERS.has(reader.role ?? '') && reader.role !== 'agent')
      throw new ToolgateError(ErrorCode.FORBIDDEN);
    if (!platform && query.tenantId !== undefined && query.tenantId !== reader.tenantId)
      throw new ToolgateError(ErrorCode.FORBIDDEN);
    const rows = await this.runs.list({
      tenantId: platform ? (query.tenantId ?? null) : reader.tenantId!,
      agentType: query.agentType,
      status: query.status,
      sessionId: query.sessionId,
      principalId: reader.role === 'agent' ? reader.principalId : undefined,
      before: decodeCursor(query.cursor),
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      items: await Promise.all(page.map((r) => this.viewOf(r))),
      nextCursor: rows.length > query.limit && last ? `${last.createdAt.toISOString()}|${last.runId}` : null,
    };
  }

  async session(reader: RunPrincipal, sessionId: string): Promise<SessionRuns> {
    const rows =
      reader.role === 'platform_admin' || !reader.tenantId
        ? []
        : (await this.runs.session(reader.tenantId, sessionId)).filter((r) => this.mayRead(reader, r));
    if (!rows.length)
      throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `session ${sessionId}` } });
    return { sessionId, runs: await Promise.all(rows.map((r) => this.viewOf(r))) };
  }

  /**
   * Cancels a run that has not ended: marked cancelled in the database (a gateway driving it
   * elsewhere stops at its next lease renewal), and stopped here at once if this gateway drives it.
   */
  async cancel(reader: RunPrincipal, runId: string, locale: Locale): Promise<RunView> {
    const run = await this.visible(reader, runId);
    const ref = { tenantId: run.tenantId, runId };
    const error = errorEnvelope(ErrorCode.RUN_CANCELLED, locale);
    if (await this.runs.cancel(ref, error as unknown as Record<string, unknown>)) {
      this.driver.abort(runId, 'cancelled');
      await this.driver.current(runId);
      // What the run waited for is no longer wanted: approving it later must not run the call.
      for (const c of await this.runs.calls(ref))
        if (c.status === 'pending_approval' && c.approvalId)
          await this.approvals.withdraw(c.approvalId, reader, `run ${runId} was cancelled`);
      const cancelled = (await this.runs.find(ref))!;
      await this.events.emit(ref, 'run_finished', {
        status: 'cancelled',
        output: null,
        error,
        usage: usageOf(cancelled),
        steps: cancelled.steps,
      });
      await this.driver.recordFinished(ref);
    }
    return this.view(reader, runId);
  }
}

function storedPrincipal(p: RunPrincipal): StoredRunPrincipal {
  return {
    principalType: p.principalType,
    principalId: p.principalId,
    role: p.role,
    tenantId: p.tenantId ?? null,
    name: p.name,
    agentTypes: p.agentTypes ? [...p.agentTypes] : null,
  };
}

function decodeCursor(cursor: string | undefined): { createdAt: Date; runId: string } | undefined {
  if (!cursor) return undefined;
  const [at, runId] = cursor.split('|');
  const createdAt = new Date(at ?? '');
  if (!runId || Number.isNaN(createdAt.getTime()))
    throw new ToolgateError(ErrorCode.INVALID_INPUT, { params: { summary: 'cursor' } });
  return { createdAt, runId };
}
