import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { fromSqlDateTime, isMysql, toSqlDateTime, TransactionRunner } from '@toolgate/database';
import type { DataSource } from 'typeorm';
import { AuditCheckpointEntity } from '../entities/audit-checkpoint.entity.js';
import type { CheckpointStatement } from './checkpoint-signer.js';

/** A stored checkpoint. */
export interface StoredCheckpoint extends CheckpointStatement {
  readonly keyId: string;
  readonly signature: string;
}

/** Checkpoints and the chain heads they are taken from. */
@Injectable()
export class CheckpointRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {}

  /**
   * Takes a consistent (seq, head) of one tenant's chain and stores its signed checkpoint in the
   * same transaction, holding the chain lock so no event slips in between.
   */
  async record(
    tenantId: string,
    sign: (s: CheckpointStatement) => { keyId: string; signature: string },
  ): Promise<StoredCheckpoint | null> {
    return this.transactions.run(async (em) => {
      const lock = isMysql(em) ? ' FOR UPDATE' : '';
      const [head] = (await em.query(
        `SELECT seq, head_hash FROM audit_chain_heads WHERE tenant_id = ?${lock}`,
        [tenantId],
      )) as { seq: string | number; head_hash: string }[];
      if (!head || Number(head.seq) === 0) return null;
      const statement: CheckpointStatement = {
        tenantId,
        seq: Number(head.seq),
        headHash: head.head_hash,
        signedAt: new Date().toISOString(),
      };
      const { keyId, signature } = sign(statement);
      await em.query(
        'INSERT INTO audit_checkpoints (tenant_id, seq, head_hash, signed_at, key_id, signature) VALUES (?,?,?,?,?,?)',
        [
          tenantId,
          statement.seq,
          statement.headHash,
          toSqlDateTime(new Date(statement.signedAt)),
          keyId,
          signature,
        ],
      );
      return { ...statement, keyId, signature };
    });
  }

  /** A tenant's chain head (event count and newest hash), or null before its first event. */
  async chainHead(tenantId: string): Promise<{ seq: number; headHash: string } | null> {
    const [row] = (await this.dataSource.query(
      'SELECT seq, head_hash FROM audit_chain_heads WHERE tenant_id = ?',
      [tenantId],
    )) as { seq: string | number; head_hash: string }[];
    return row ? { seq: Number(row.seq), headHash: row.head_hash } : null;
  }

  /** Every tenant with a chain. */
  async chainTenants(): Promise<string[]> {
    const rows = (await this.dataSource.query(
      'SELECT tenant_id FROM audit_chain_heads ORDER BY tenant_id',
    )) as { tenant_id: string }[];
    return rows.map((r) => r.tenant_id);
  }

  /** Tenants whose chain grew since their last checkpoint. */
  async tenantsWithUncheckpointedEvents(): Promise<string[]> {
    const rows = (await this.dataSource.query(
      `SELECT h.tenant_id FROM audit_chain_heads h
       LEFT JOIN (SELECT tenant_id, MAX(seq) AS seq FROM audit_checkpoints GROUP BY tenant_id) c ON c.tenant_id = h.tenant_id
       WHERE h.seq > COALESCE(c.seq, 0)`,
    )) as { tenant_id: string }[];
    return rows.map((r) => r.tenant_id);
  }

  /** A tenant's checkpoints, oldest first; all tenants' when `tenantId` is undefined. */
  async list(tenantId?: string): Promise<StoredCheckpoint[]> {
    const rows = await this.dataSource.getRepository(AuditCheckpointEntity).find({
      where: tenantId ? { tenantId } : {},
      order: { tenantId: 'ASC', seq: 'ASC', id: 'ASC' },
    });
    return rows.map((r) => ({
      tenantId: r.tenantId,
      seq: Number(r.seq),
      headHash: r.headHash,
      signedAt: fromSqlDateTime(r.signedAt).toISOString(),
      keyId: r.keyId,
      signature: r.signature,
    }));
  }
}
