import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { RunStatus } from '@toolgate/contract';
import {
  sealJson,
  sealText,
  toSqlDateTime,
  TransactionRunner,
  type ReadStatement,
  type WriteStatement,
} from '@toolgate/database';
import { Brackets, In, IsNull, type DataSource } from 'typeorm';
import { AgentRunEntity } from '../entities/agent-run.entity.js';
import { RunStepEntity } from '../entities/run-step.entity.js';
import { RunToolCallEntity } from '../entities/run-tool-call.entity.js';
import {
  finishStep,
  insertCalls,
  insertRun,
  insertStep,
  updateCall,
  updateDrivenRun,
  type SettledStep,
} from './run-sql.js';

/** A run's key: run ids are unique per tenant, and every statement names both. */
export interface RunRef {
  readonly tenantId: string;
  readonly runId: string;
}

/** What a run's list may be narrowed to. */
export interface RunFilter {
  readonly tenantId: string | null;
  readonly agentType?: string;
  readonly status?: RunStatus;
  readonly sessionId?: string;
  readonly principalId?: string;
  /** Only runs created before this one (the cursor: created_at|run_id). */
  readonly before?: { createdAt: Date; runId: string };
  readonly limit: number;
}

/** How a driven run ends. */
export interface RunEnding {
  readonly status: 'completed' | 'failed';
  readonly output: string | null;
  readonly error: Record<string, unknown> | null;
  /** When: the run's `updatedAt` and `finishedAt`. */
  readonly at: Date;
}

/** What a drive's write of its progress carries along: the step settled before it, the run's end. */
export interface Fold {
  readonly settled?: SettledStep | null;
  readonly ending?: RunEnding;
}

/**
 * Other libs' rows and reads a drive's write takes along (ADR 050): writes in its transaction, after
 * its own; reads after it commits, in the same round trip on MySQL. Their rows come back in order.
 */
export interface Along {
  readonly writes: readonly WriteStatement[];
  readonly reads: readonly ReadStatement[];
}

const NOTHING_ALONG: Along = { writes: [], reads: [] };

/** The columns of a run that ended. */
const endingColumns = (e: RunEnding) => ({
  status: e.status,
  // Sealed like the rest of a live run (ADR 036): the run's scrub replaces them once it ended.
  output: e.output === null ? null : sealText(e.output),
  error: e.error === null ? null : JSON.stringify(sealJson(e.error)),
  lease_owner: null,
  lease_until: null,
  updated_at: toSqlDateTime(e.at),
  finished_at: toSqlDateTime(e.at),
});

/** A driven run's step count and token usage so far, written by the lease owner. */
export interface RunProgress {
  readonly owner: string;
  readonly steps: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

const ACTIVE: RunStatus[] = ['running', 'awaiting_approval'];

/**
 * The one owner of `agent_runs`, `run_steps` and `run_tool_calls`. Every change of a run's status
 * names the status it expects (and, for a driven run, the lease owner), so a gateway that lost its
 * lease, or a run cancelled meanwhile, changes nothing: the methods answer whether the row moved.
 */
@Injectable()
export class RunRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {}

  private get runs() {
    return this.dataSource.getRepository(AgentRunEntity);
  }

  /** Stores a new run, with `also` (its first event) in the same transaction. */
  async insert(run: AgentRunEntity, also: readonly WriteStatement[] = []): Promise<void> {
    await this.transactions.writeAll([insertRun(run), ...also]);
  }

  find(ref: RunRef): Promise<AgentRunEntity | null> {
    return this.runs.findOne({ where: { tenantId: ref.tenantId, runId: ref.runId } });
  }

  /** A run of any tenant, for platform-wide readers; run ids are minted unique by the platform. */
  findInAnyTenant(runId: string): Promise<AgentRunEntity | null> {
    return this.runs.findOne({ where: { runId } });
  }

  list(filter: RunFilter): Promise<AgentRunEntity[]> {
    const q = this.runs.createQueryBuilder('r');
    if (filter.tenantId !== null) q.andWhere('r.tenant_id = :tenantId', { tenantId: filter.tenantId });
    if (filter.agentType) q.andWhere('r.agent_type = :agentType', { agentType: filter.agentType });
    if (filter.status) q.andWhere('r.status = :status', { status: filter.status });
    if (filter.sessionId) q.andWhere('r.session_id = :sessionId', { sessionId: filter.sessionId });
    if (filter.principalId) q.andWhere('r.principal_id = :principalId', { principalId: filter.principalId });
    const before = filter.before;
    if (before)
      q.andWhere(
        new Brackets((w) =>
          w
            .where('r.created_at < :createdAt', { createdAt: before.createdAt })
            .orWhere('(r.created_at = :createdAt AND r.run_id < :runId)', { runId: before.runId }),
        ),
      );
    return q.orderBy('r.created_at', 'DESC').addOrderBy('r.run_id', 'DESC').take(filter.limit).getMany();
  }

  /** The runs of a session, oldest first. */
  /**
   * How many top-level runs of one principal have not ended (running or awaiting approval): a
   * sub-agent's run is part of its parent's and is not counted apart.
   */
  inFlight(tenantId: string, principalId: string): Promise<number> {
    return this.runs.count({
      where: { tenantId, principalId, status: In(ACTIVE), parentRunId: IsNull() },
    });
  }

  session(tenantId: string, sessionId: string): Promise<AgentRunEntity[]> {
    return this.runs.find({
      where: { tenantId, sessionId },
      order: { createdAt: 'ASC', runId: 'ASC' },
    });
  }

  /**
   * Takes the lease of a run in `from` whose lease is free or stale; the run is `running` after.
   * True for exactly one gateway.
   */
  async acquire(
    ref: RunRef,
    owner: string,
    leaseMs: number,
    from: RunStatus,
    deadlineAt?: Date,
  ): Promise<boolean> {
    const now = new Date();
    const result = await this.runs
      .createQueryBuilder()
      .update()
      .set({
        ...(deadlineAt ? { deadlineAt } : {}),
        status: 'running',
        leaseOwner: owner,
        leaseUntil: new Date(now.getTime() + leaseMs),
        updatedAt: now,
      })
      .where('tenant_id = :tenantId AND run_id = :runId AND status = :from', { ...ref, from })
      .andWhere(new Brackets((w) => w.where('lease_owner IS NULL').orWhere('lease_until < :now', { now })))
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Extends this gateway's lease; false when it lost it (taken over, or the run was cancelled). */
  async renew(ref: RunRef, owner: string, leaseMs: number): Promise<boolean> {
    const now = new Date();
    const result = await this.runs.update(
      { ...ref, status: 'running', leaseOwner: owner },
      { leaseUntil: new Date(now.getTime() + leaseMs), updatedAt: now },
    );
    return (result.affected ?? 0) > 0;
  }

  /** Step count and token usage so far (a turn stores them with itself; a sub-agent's tokens come later). */
  async progress(ref: RunRef, progress: RunProgress): Promise<boolean> {
    const { owner, steps, inputTokens, outputTokens } = progress;
    const result = await this.runs.update(
      { ...ref, status: 'running', leaseOwner: owner },
      { steps, inputTokens, outputTokens, updatedAt: new Date() },
    );
    return (result.affected ?? 0) > 0;
  }

  /** Parks a driven run on approval: no lease, no compute, until every pending call is decided. */
  async park(ref: RunRef, owner: string): Promise<boolean> {
    const result = await this.runs.update(
      { ...ref, status: 'running', leaseOwner: owner },
      { status: 'awaiting_approval', leaseOwner: null, leaseUntil: null, updatedAt: new Date() },
    );
    return (result.affected ?? 0) > 0;
  }

  /** Ends a driven run (with the step settled just before, if any) in one transaction. */
  async finish(
    ref: RunRef,
    owner: string,
    ending: RunEnding,
    settled?: SettledStep | null,
  ): Promise<boolean> {
    const changed = await this.transactions.writeAll([
      ...(settled ? [finishStep(ref, settled)] : []),
      updateDrivenRun(ref, owner, endingColumns(ending)),
    ]);
    return changed.at(-1)! > 0;
  }

  /** Cancels a run that has not ended; whoever drives it stops at its next lease renewal. */
  async cancel(ref: RunRef, error: Record<string, unknown>): Promise<boolean> {
    const now = new Date();
    const result = await this.runs.update(
      { ...ref, status: In(ACTIVE) },
      {
        status: 'cancelled',
        error: error as Record<string, any>,
        leaseOwner: null,
        leaseUntil: null,
        updatedAt: now,
        finishedAt: now,
      },
    );
    return (result.affected ?? 0) > 0;
  }

  /** Running runs whose gateway stopped renewing its lease. */
  stale(limit = 20): Promise<AgentRunEntity[]> {
    return this.runs
      .createQueryBuilder('r')
      .where(`r.status = 'running' AND r.lease_until < :now`, { now: new Date() })
      .take(limit)
      .getMany();
  }

  /** Parked runs, oldest change first. */
  parked(limit = 50): Promise<AgentRunEntity[]> {
    return this.runs.find({
      where: { status: 'awaiting_approval' },
      order: { updatedAt: 'ASC' },
      take: limit,
    });
  }

  steps(ref: RunRef): Promise<RunStepEntity[]> {
    return this.dataSource
      .getRepository(RunStepEntity)
      .find({ where: { tenantId: ref.tenantId, runId: ref.runId }, order: { stepIndex: 'ASC' } });
  }

  calls(ref: RunRef, stepIndex?: number): Promise<RunToolCallEntity[]> {
    return this.dataSource.getRepository(RunToolCallEntity).find({
      where: { tenantId: ref.tenantId, runId: ref.runId, ...(stepIndex === undefined ? {} : { stepIndex }) },
      order: { stepIndex: 'ASC', callIndex: 'ASC' },
    });
  }

  /** The calls still waiting for a person in any of `refs` (parked runs), in one query. */
  pendingCalls(refs: readonly RunRef[]): Promise<RunToolCallEntity[]> {
    if (!refs.length) return Promise.resolve([]);
    const runIds = new Map<string, string[]>();
    for (const r of refs) runIds.set(r.tenantId, [...(runIds.get(r.tenantId) ?? []), r.runId]);
    return this.dataSource.getRepository(RunToolCallEntity).find({
      where: [...runIds].map(([tenantId, ids]) => ({
        tenantId,
        runId: In(ids),
        status: 'pending_approval' as const,
      })),
    });
  }

  /**
   * Stores a model turn and its tool calls (all `running`), before any runs, with the run's step
   * count and token usage so far, in one transaction (one commit, one round trip on MySQL) — with
   * the previous step's end when it was settled since, and the run's end when the turn ends it.
   * False when the run is no longer this gateway's (the turn is stored all the same, as when the
   * two were written apart).
   */
  async storeStep(
    step: RunStepEntity,
    calls: RunToolCallEntity[],
    progress: RunProgress,
    fold: Fold = {},
    along: Along = NOTHING_ALONG,
  ): Promise<{ held: boolean; rows: Record<string, unknown>[][] }> {
    const ref = { tenantId: step.tenantId, runId: step.runId };
    const at = fold.ending?.at ?? new Date();
    const own = [
      ...(fold.settled ? [finishStep(ref, fold.settled)] : []),
      insertStep(step),
      ...(calls.length ? [insertCalls(calls)] : []),
      updateDrivenRun(ref, progress.owner, {
        steps: progress.steps,
        input_tokens: progress.inputTokens,
        output_tokens: progress.outputTokens,
        updated_at: toSqlDateTime(at),
        ...(fold.ending ? endingColumns(fold.ending) : {}),
      }),
    ];
    const { changed, rows } = await this.transactions.writeAllThenRead(
      [...own, ...along.writes],
      along.reads,
    );
    return { held: changed[own.length - 1]! > 0, rows };
  }

  /** Records a call's outcome (or that it parked), with what `along` brings (its read rows answered). */
  async updateCall(
    call: RunToolCallEntity,
    fields: Pick<RunToolCallEntity, 'status' | 'approvalId' | 'result' | 'modelText'>,
    along: Along = NOTHING_ALONG,
  ): Promise<Record<string, unknown>[][]> {
    const statement = updateCall(call, fields, new Date());
    if (!along.writes.length && !along.reads.length) {
      await this.dataSource.query(statement.sql, [...statement.params]);
      return [];
    }
    return (await this.transactions.writeAllThenRead([statement, ...along.writes], along.reads)).rows;
  }

  /** Makes `attempt` the current attempt of a call (a re-run after a takeover). */
  async setAttempt(call: RunToolCallEntity, attempt: number): Promise<void> {
    await this.dataSource.getRepository(RunToolCallEntity).update(
      {
        tenantId: call.tenantId,
        runId: call.runId,
        stepIndex: call.stepIndex,
        callIndex: call.callIndex,
      },
      { attempt, updatedAt: new Date() },
    );
  }

  async finishStep(ref: RunRef, settled: SettledStep): Promise<void> {
    const { sql, params } = finishStep(ref, settled);
    await this.dataSource.query(sql, [...params]);
  }
}
