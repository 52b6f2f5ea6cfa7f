import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { InstanceRegistry } from '@toolgate/database';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import type { Verification } from '../chain/chain-verifier.js';
import { CheckpointRepository } from '../chain/checkpoint.repository.js';
import { CheckpointService } from '../chain/checkpoint.service.js';
import type { AuditScope } from './audit-queries.js';
import { VerifyJobsRepository, type StoredVerifyJob } from './verify-jobs.repository.js';

/** How long a finished job stays readable. */
export const VERIFY_JOB_KEPT_MS = 7 * 24 * 3600_000;
/** How often a running job's progress reaches the database (what other gateways show). */
const PROGRESS_EVERY_MS = 1_000;

/** A full verification running in the background, with its progress. */
export interface VerifyJob {
  readonly id: string;
  readonly status: 'running' | 'done' | 'failed';
  /** The tenant verified; null for every tenant with a chain. */
  readonly tenantId: string | null;
  readonly startedAt: string;
  readonly finishedAt?: string;
  /** Events checked so far, of about `total` (the chain heads when the job started). */
  readonly checked: number;
  readonly total: number;
  /** The gateway instance running (or that ran) it. */
  readonly instanceId: string;
  readonly result?: Verification;
  readonly error?: string;
}

/**
 * Full verifications as background jobs (`POST /v1/audit/verify-jobs`): a whole chain can take
 * minutes (~32k events/s), longer than a request should wait. A job runs in the gateway that
 * started it and lives in `audit_verify_jobs` (ADR 046): any gateway answers its progress (at
 * most a second behind) and result; a job whose gateway died, or restarted, is answered as
 * failed (and recorded so); finished jobs stay readable for a week.
 */
@Injectable()
export class VerifyJobs {
  private readonly logger = new Logger('AuditVerifyJobs');
  /** The progress of the jobs this gateway runs, fresher than the database's. */
  private readonly running = new Map<string, { checked: number }>();

  constructor(
    private readonly checkpoints: CheckpointService,
    private readonly repo: CheckpointRepository,
    private readonly store: VerifyJobsRepository,
    private readonly instances: InstanceRegistry,
  ) {}

  /** Starts a job; `onFinished` hears of its end (done or failed), e.g. to record the run. */
  async start(
    scope: AuditScope,
    tenantId: string | null,
    onFinished?: (job: VerifyJob) => void,
  ): Promise<VerifyJob> {
    const tenants = tenantId ? [tenantId] : await this.repo.chainTenants();
    let total = 0;
    for (const t of tenants) total += (await this.repo.chainHead(t))?.seq ?? 0;
    const now = new Date();
    const stored: StoredVerifyJob = {
      id: randomUUID(),
      status: 'running',
      tenantId,
      scope,
      instanceId: this.instances.instanceId,
      bootId: this.instances.bootId,
      startedAt: now,
      updatedAt: now,
      finishedAt: null,
      checked: 0,
      total,
      result: null,
      error: null,
    };
    await this.store.insert(stored);
    void this.store
      .purgeFinished(new Date(now.getTime() - VERIFY_JOB_KEPT_MS))
      .catch((err: Error) => this.logger.warn(`forgetting old verify jobs failed: ${err.message}`));
    const progress = { checked: 0 };
    this.running.set(stored.id, progress);
    let saved = Date.now();
    void this.checkpoints
      .verify(
        tenants,
        {},
        {
          onProgress: (n) => {
            progress.checked = n;
            if (Date.now() - saved < PROGRESS_EVERY_MS) return;
            saved = Date.now();
            this.store
              .progress(stored.id, n)
              .catch((err: Error) => this.logger.warn(`verify job ${stored.id} progress: ${err.message}`));
          },
        },
      )
      .then(
        (result): JobEnd => ({ status: 'done', result, checked: result.checked }),
        (err: Error): JobEnd => {
          this.logger.error(`verify job ${stored.id} failed: ${err.message}`);
          return { status: 'failed', error: err.message, checked: progress.checked };
        },
      )
      .then(async (end) => {
        // The end is stored before it is announced: whoever hears of it can read it.
        await this.store
          .finish(stored.id, end)
          .catch((err: Error) => this.logger.error(`verify job ${stored.id} end not stored: ${err.message}`));
        this.running.delete(stored.id);
        onFinished?.(
          view({
            ...stored,
            ...end,
            result: end.result ?? null,
            error: end.error ?? null,
            finishedAt: new Date(),
          }),
        );
      });
    return view(stored);
  }

  /** A job the reader may see: started by a reader of the same scope, or any for a reader of all. */
  async get(id: string, scope: AuditScope): Promise<VerifyJob> {
    const job = /^[0-9a-f-]{36}$/.test(id) ? await this.store.find(id) : null;
    if (!job || (scope !== null && job.scope !== scope))
      throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `verify job ${id}` } });
    if (job.status !== 'running') return view(job);
    const mine = this.running.get(id);
    if (mine) return view({ ...job, checked: Math.max(job.checked, mine.checked) });
    if (await this.instances.isAliveInBoot(job.instanceId, job.bootId)) return view(job);
    // Its gateway stopped (or restarted) mid-way: the job will never end on its own.
    const error = `the gateway running it (${job.instanceId}) stopped before it finished; start the verification again`;
    await this.store.finish(id, { status: 'failed', error });
    return view((await this.store.find(id)) ?? { ...job, status: 'failed', error, finishedAt: new Date() });
  }
}

interface JobEnd {
  readonly status: 'done' | 'failed';
  readonly checked: number;
  readonly result?: Verification;
  readonly error?: string;
}

function view(job: StoredVerifyJob): VerifyJob {
  return {
    id: job.id,
    status: job.status,
    tenantId: job.tenantId,
    startedAt: job.startedAt.toISOString(),
    ...(job.finishedAt ? { finishedAt: job.finishedAt.toISOString() } : {}),
    checked: job.checked,
    total: job.total,
    instanceId: job.instanceId,
    ...(job.result ? { result: job.result } : {}),
    ...(job.error ? { error: job.error } : {}),
  };
}
