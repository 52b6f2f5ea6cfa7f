import { Inject, Injectable } from '@nestjs/common';
import { AgentFactory, type AgentPrincipal } from '@toolgate/agents';
import { ApprovalService } from '@toolgate/approvals';
import { CallRecords } from '@toolgate/calls';
import { TokenBudget } from '@toolgate/quotas';
import type { RunEvent, RunListQuery, RunPage, RunView, SessionRuns, StartRunBody } from '@toolgate/contract';
import {
  errorEnvelope,
  ErrorCode,
  ToolgateError,
  type CallPrincipal,
  type ErrorEnvelope,
  type Locale,
} from '@toolgate/toolkit';
import { AgentRunEntity, type StoredRunPrincipal } from './entities/agent-run.entity.js';
import { RunEvents } from './events/run-events.js';
import { RunDriver } from './loop/run-driver.js';
import { RunOpener, type NewRun } from './loop/run-opener.js';
import { attemptCallId, FINAL_CALL_STATUSES, newRunId, newSessionId } from './loop/run-ids.js';
import { usageOf, type DriveResult } from './loop/run-drive.js';
import { RUN_MODEL_SOURCE, type RunModelSource } from './loop/run-models.js';
import { modelLabel, runSettingsOf } from './loop/run-settings.js';
import { SubAgents } from './loop/sub-agents.js';
import type { RunToolCallEntity } from './entities/run-tool-call.entity.js';
import { RunRepository, type RunRef } from './store/run.repository.js';
import { toRunView } from './store/run-view.js';
import { RunReaders } from './views/run-readers.js';
import { RunAdmission } from './run-admission.js';

/** A reader or starter of runs: agent keys may be limited to some agent types. */
export type RunPrincipal = AgentPrincipal;

/** Roles that read every run of their tenant (platform admins: of every tenant). */
const TENANT_READERS = new Set(['tenant_admin', 'auditor']);

/** A run just started: its id, and the drive under way (resolves when it finishes or parks). */
export interface StartedRun {
  readonly ref: RunRef;
  readonly done: Promise<DriveResult>;
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
    private readonly approvals: ApprovalService,
    private readonly callRecords: CallRecords,
    private readonly subAgents: SubAgents,
    private readonly opener: RunOpener,
    @Inject(RUN_MODEL_SOURCE) private readonly models: RunModelSource,
    private readonly tenantTokens: TokenBudget,
    private readonly readers: RunReaders,
    private readonly admission: RunAdmission,
  ) {}

  /**
   * Stores a new run (NOT_FOUND for an agent type the principal may not use; 429 BUDGET_EXCEEDED
   * when the tenant's tokens of the day are spent; 429 RATE_LIMITED past the key's runs in flight
   * or a call quota, RunAdmission) and starts driving it.
   */
  async start(
    principal: RunPrincipal,
    agentType: string,
    body: StartRunBody,
    locale: Locale,
  ): Promise<StartedRun> {
    const tenantId = principal.tenantId!;
    // The agent acts for the principal as stored with the run, as it does when the run resumes.
    const stored = storedPrincipal(principal);
    const agent = await this.agents.create(tenantId, agentType, stored);
    await this.tenantTokens.assertAvailable(tenantId);
    if (body.sessionId) await this.mayContinue(principal, agentType, body.sessionId);
    const settings = runSettingsOf(agent.binding);
    const model = modelLabel(this.models.resolve(settings.model));
    const opened: NewRun = {
      tenantId,
      runId: newRunId(),
      sessionId: body.sessionId ?? newSessionId(),
      agentType,
      principal: stored,
      locale,
      model,
      input: body.input,
      deadlineAt: new Date(Date.now() + settings.deadlineMs),
    };
    // The key's runs in flight and the tenant's call quotas (429 RATE_LIMITED, nothing stored);
    // the key's next start is admitted once this run is stored, before its start is audited.
    const run = (await this.admission.admit({ tenantId, principalId: principal.principalId }, locale, () =>
      this.opener.store(opened),
    ))!;
    await this.opener.announce(opened);
    const ref = { tenantId, runId: run.runId };
    return { ref, done: this.driver.drive(run, { newSession: body.sessionId === undefined, agent }) };
  }

  /**
   * A started run once its drive is done, for its starter: as the drive stored it when it ended
   * there (not read back), else as stored now (parked, or ended elsewhere).
   */
  async viewOfStarted(starter: RunPrincipal, started: StartedRun): Promise<RunView> {
    const { finished } = await started.done;
    if (finished) return toRunView(finished.run, finished.steps, finished.calls);
    return this.view(starter, started.ref.runId);
  }

  /**
   * A session is continued only by the key that started it, with the same agent type: its runs'
   * questions and answers become the new run's prompt, so another key (even of the same tenant)
   * naming a session id it has seen must not read them through the model. NOT_FOUND otherwise,
   * as for a session that does not exist; an id no run of the tenant uses starts a new session.
   */
  private async mayContinue(principal: RunPrincipal, agentType: string, sessionId: string): Promise<void> {
    const earlier = await this.runs.session(principal.tenantId!, sessionId);
    if (earlier.some((r) => r.principalId !== principal.principalId || r.agentType !== agentType))
      throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `session ${sessionId}` } });
  }

  /** The run as `reader` sees it: as it is for its own key, redacted for every other reader. */
  async view(reader: RunPrincipal, runId: string): Promise<RunView> {
    const run = await this.visible(reader, runId);
    return this.readers.viewer(reader).view(run, await this.viewOf(run));
  }

  /** How `reader` gets the stored events of a run it may read (RunReaders). */
  eventsFor(reader: RunPrincipal, run: AgentRunEntity): Promise<(event: RunEvent) => RunEvent | null> {
    return this.readers.viewer(reader).events(run);
  }

  /** The run as stored, whoever asks: callers show it through RunReaders. */
  private async viewOf(run: AgentRunEntity): Promise<RunView> {
    const ref = { tenantId: run.tenantId, runId: run.runId };
    // A run waiting for a sub-agent lists the approvals the sub-agent waits for.
    return toRunView(
      run,
      await this.runs.steps(ref),
      await this.runs.calls(ref),
      await this.subAgents.pendingApprovals(run),
    );
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
    const viewer = this.readers.viewer(reader);
    return {
      items: await Promise.all(page.map(async (r) => viewer.view(r, await this.viewOf(r)))),
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
    const viewer = this.readers.viewer(reader);
    return {
      sessionId,
      runs: await Promise.all(rows.map(async (r) => viewer.view(r, await this.viewOf(r)))),
    };
  }

  /**
   * Cancels a run that has not ended: marked cancelled in the database (a gateway driving it
   * elsewhere stops at its next lease renewal), and stopped here at once if this gateway drives it.
   * Its unfinished sub-agent runs are cancelled with it.
   */
  async cancel(reader: RunPrincipal, runId: string, locale: Locale): Promise<RunView> {
    const run = await this.visible(reader, runId);
    await this.cancelRun({ tenantId: run.tenantId, runId }, reader, locale);
    return this.view(reader, runId);
  }

  private async cancelRun(ref: RunRef, actor: CallPrincipal, locale: Locale): Promise<void> {
    const error = errorEnvelope(ErrorCode.RUN_CANCELLED, locale);
    if (!(await this.runs.cancel(ref, error as unknown as Record<string, unknown>))) return;
    this.driver.abort(ref.runId, 'cancelled');
    for (const child of await this.subAgents.children(ref))
      await this.cancelRun({ tenantId: child.tenantId, runId: child.runId }, actor, locale);
    await this.driver.current(ref.runId);
    // What the run waited for is no longer wanted: approving it later must not run the call.
    for (const c of await this.runs.calls(ref))
      if (c.status === 'pending_approval' && c.approvalId)
        await this.approvals.withdraw(c.approvalId, actor, `run ${ref.runId} was cancelled`);
    await this.closeCalls(ref, error);
    const cancelled = (await this.runs.find(ref))!;
    await this.events.emit(ref, 'run_finished', {
      status: 'cancelled',
      output: null,
      error,
      usage: usageOf(cancelled),
      steps: cancelled.steps,
    });
    await this.driver.ended(ref);
  }

  /**
   * Gives every call a cancelled run had not finished its final status: what its own record says
   * when it has one that ended (a withdrawn approval reads `denied`, APPROVAL_DENIED with the
   * reason), else `interrupted` with RUN_CANCELLED (a call stopped mid-run, a delegation whose
   * sub-agent was cancelled).
   */
  private async closeCalls(ref: RunRef, cancelled: ErrorEnvelope): Promise<void> {
    for (const c of await this.runs.calls(ref)) {
      if (FINAL_CALL_STATUSES.has(c.status)) continue;
      const record = await this.callRecords.find({ tenantId: ref.tenantId, callId: attemptCallId(c) });
      const [status, result] =
        record && FINAL_CALL_STATUSES.has(record.status) && record.envelope
          ? [record.status as RunToolCallEntity['status'], record.envelope as Record<string, unknown>]
          : (['interrupted', { ...cancelled, callId: c.callId }] as const);
      await this.runs.updateCall(c, {
        status,
        approvalId: c.approvalId,
        result,
        modelText: JSON.stringify(result),
      });
      await this.events.emit(ref, 'tool_result', {
        step: c.stepIndex,
        callId: c.callId,
        tool: c.tool,
        status,
        result,
      });
    }
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
