import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { fromSqlDateTime, toSqlDateTime } from '@toolgate/database';
import type { DataSource } from 'typeorm';
import type { Verification } from '../chain/chain-verifier.js';

/** A verify job as stored: who runs it (instance and boot), its progress, its verdict. */
export interface StoredVerifyJob {
  readonly id: string;
  readonly status: 'running' | 'done' | 'failed';
  readonly tenantId: string | null;
  /** The scope of the reader who started it (a tenant, or null for a reader of every tenant). */
  readonly scope: string | null;
  readonly instanceId: string;
  readonly bootId: string;
  readonly startedAt: Date;
  readonly updatedAt: Date;
  readonly finishedAt: Date | null;
  readonly checked: number;
  readonly total: number;
  readonly result: Verification | null;
  readonly error: string | null;
}

type Row = Record<string, unknown>;

/** The only way to `audit_verify_jobs` (ADR 046). */
@Injectable()
export class VerifyJobsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(job: StoredVerifyJob): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO audit_verify_jobs (id, status, tenant_id, scope, instance_id, boot_id, started_at, updated_at, finished_at, checked, total, result, error)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, NULL, NULL)`,
      [
        job.id,
        job.status,
        job.tenantId,
        job.scope,
        job.instanceId,
        job.bootId,
        toSqlDateTime(job.startedAt),
        toSqlDateTime(job.updatedAt),
        job.checked,
        job.total,
      ],
    );
  }

  /** Progress of a running job (a finished one is left as it is). */
  async progress(id: string, checked: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE audit_verify_jobs SET checked = ?, updated_at = ? WHERE id = ? AND status = 'running'`,
      [checked, toSqlDateTime(new Date()), id],
    );
  }

  /** A running job's end: done with its verdict, or failed with why. Only a running job changes. */
  async finish(
    id: string,
    end: { status: 'done' | 'failed'; checked?: number; result?: Verification; error?: string },
  ): Promise<void> {
    const now = toSqlDateTime(new Date());
    await this.dataSource.query(
      `UPDATE audit_verify_jobs SET status = ?, checked = COALESCE(?, checked), result = ?, error = ?, finished_at = ?, updated_at = ?
        WHERE id = ? AND status = 'running'`,
      [
        end.status,
        end.checked ?? null,
        end.result ? JSON.stringify(end.result) : null,
        end.error?.slice(0, 500) ?? null,
        now,
        now,
        id,
      ],
    );
  }

  async find(id: string): Promise<StoredVerifyJob | null> {
    const rows = (await this.dataSource.query('SELECT * FROM audit_verify_jobs WHERE id = ?', [id])) as Row[];
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** Forgets jobs finished before `before`; answers how many. */
  async purgeFinished(before: Date): Promise<number> {
    const res = (await this.dataSource.query(
      'DELETE FROM audit_verify_jobs WHERE finished_at IS NOT NULL AND finished_at < ?',
      [toSqlDateTime(before)],
    )) as { affectedRows?: number } | unknown[];
    return Array.isArray(res) ? 0 : (res.affectedRows ?? 0);
  }
}

function fromRow(r: Row): StoredVerifyJob {
  return {
    id: String(r['id']),
    status: r['status'] as StoredVerifyJob['status'],
    tenantId: (r['tenant_id'] as string | null) ?? null,
    scope: (r['scope'] as string | null) ?? null,
    instanceId: String(r['instance_id']),
    bootId: String(r['boot_id']),
    startedAt: fromSqlDateTime(r['started_at']),
    updatedAt: fromSqlDateTime(r['updated_at']),
    finishedAt:
      r['finished_at'] === null || r['finished_at'] === undefined ? null : fromSqlDateTime(r['finished_at']),
    checked: Number(r['checked']),
    total: Number(r['total']),
    result:
      r['result'] === null || r['result'] === undefined
        ? null
        : (JSON.parse(String(r['result'])) as Verification),
    error: (r['error'] as string | null) ?? null,
  };
}
