import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import type { Verification } from '../chain/chain-verifier.js';
import { CheckpointRepository } from '../chain/checkpoint.repository.js';
import { CheckpointService } from '../chain/checkpoint.service.js';
import type { AuditScope } from './audit-queries.js';

/** Jobs remembered per gateway; the oldest finished ones are forgotten first. */
const KEPT_JOBS = 20;

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
  readonly result?: Verification;
  readonly error?: string;
}

type JobState = { -readonly [K in keyof VerifyJob]: VerifyJob[K] } & { scope: AuditScope };

/**
 * Full verifications as background jobs (`POST /v1/audit/verify-jobs`): a whole chain can take
 * minutes (~32k events/s), longer than a request should wait. Jobs live in the gateway that runs
 * them; another gateway answers 404 for them.
 */
@Injectable()
export class VerifyJobs {
  private readonly logger = new Logger('AuditVerifyJobs');
  private readonly jobs = new Map<string, JobState>();

  constructor(
    private readonly checkpoints: CheckpointService,
    private readonly repo: CheckpointRepository,
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
    const job: JobState = {
      id: randomUUID(),
      status: 'running',
      tenantId,
      startedAt: new Date().toISOString(),
      checked: 0,
      total,
      scope,
    };
    this.remember(job);
    void this.checkpoints
      .verify(tenants, {}, { onProgress: (n) => (job.checked = n) })
      .then((result) => Object.assign(job, { status: 'done', result, checked: result.checked }))
      .catch((err: Error) => {
        this.logger.error(`verify job ${job.id} failed: ${err.message}`);
        Object.assign(job, { status: 'failed', error: err.message });
      })
      .finally(() => {
        job.finishedAt = new Date().toISOString();
        onFinished?.(view(job));
      });
    return view(job);
  }

  /** A job the reader may see: started by a reader of the same scope, or any for a reader of all. */
  get(id: string, scope: AuditScope): VerifyJob {
    const job = this.jobs.get(id);
    if (!job || (scope !== null && job.scope !== scope))
      throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `verify job ${id}` } });
    return view(job);
  }

  private remember(job: JobState): void {
    this.jobs.set(job.id, job);
    for (const [id, old] of this.jobs) {
      if (this.jobs.size <= KEPT_JOBS) break;
      if (old.status !== 'running') this.jobs.delete(id);
    }
  }
}

function view(job: JobState): VerifyJob {
  const { scope: _scope, ...rest } = job;
  return { ...rest };
}
