import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { fromSqlDateTime, isMysql, toSqlDateTime, TransactionRunner } from '@toolgate/database';
import type { DataSource, EntityManager } from 'typeorm';
import { AuditCheckpointEntity } from '../entities/audit-checkpoint.entity.js';
import type { CheckpointStatement } from './checkpoint-signer.js';

/** A stored checkpoint. */
export interface StoredCheckpoint extends CheckpointStatement {
  readonly keyId: string;
  readonly signature: string;
}

/** A tenant's chain head: how many events the gateway has written, and the newest one's hash. */
export interface ChainHead {
  readonly seq: number;
  readonly headHash: string;
}

function toStored(r: AuditCheckpointEntity): StoredCheckpoint {
  return {
    tenantId: r.tenantId,
    seq: Number(r.seq),
    headHash: r.headHash,
    signedAt: fromSqlDateTime(r.signedAt).toISOString(),
    keyId: r.keyId,
    signature: r.signature,
    ...(r.publicDigest === null
      ? {}
      : { fromSeq: Number(r.fromSeq), fromHash: r.fromHash ?? '', publicDigest: r.publicDigest }),
    ...(r.algorithm === 'sm2-sm3' ? { algorithm: r.algorithm } : {}),
  };
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
   * same transaction, holding the chain lock so no event slips in between. `seal` runs under that
   * lock with the transaction's manager; it returns the statement it signed (the one given, with
   * the stretch its public digest covers added), or why it must not be signed — then nothing is
   * stored and that reason is returned.
   */
  async record<R extends object>(
    tenantId: string,
    seal: (statement: CheckpointStatement, em: EntityManager) => Promise<StoredCheckpoint | R>,
  ): Promise<StoredCheckpoint | R | null> {
    return this.transactions.run(async (em) => {
      const head = await this.chainHead(tenantId, em, { lock: true });
      if (!head || head.seq === 0) return null;
      const statement: CheckpointStatement = {
        tenantId,
        seq: head.seq,
        headHash: head.headHash,
        signedAt: new Date().toISOString(),
      };
      const sealed = await seal(statement, em);
      if (!('signature' in sealed)) return sealed;
      await em.query(
        `INSERT INTO audit_checkpoints (tenant_id, seq, head_hash, signed_at, key_id, signature, from_seq, from_hash, public_digest, algorithm)
         VALUES (?,?,?,?,?,?,?,?,?,?)`,
        [
          tenantId,
          sealed.seq,
          sealed.headHash,
          toSqlDateTime(new Date(sealed.signedAt)),
          sealed.keyId,
          sealed.signature,
          sealed.fromSeq ?? null,
          sealed.fromHash ?? null,
          sealed.publicDigest ?? null,
          sealed.algorithm ?? null,
        ],
      );
      return sealed;
    });
  }

  /**
   * A tenant's chain head, or null before its first event; `lock` holds it (MySQL `FOR UPDATE`)
   * until `em`'s transaction ends, which keeps writers of the tenant out.
   */
  async chainHead(
    tenantId: string,
    em: EntityManager = this.dataSource.manager,
    options: { lock?: boolean } = {},
  ): Promise<ChainHead | null> {
    const lock = options.lock && isMysql(em) ? ' FOR UPDATE' : '';
    const [row] = (await em.query(`SELECT seq, head_hash FROM audit_chain_heads WHERE tenant_id = ?${lock}`, [
      tenantId,
    ])) as { seq: string | number; head_hash: string }[];
    return row ? { seq: Number(row.seq), headHash: row.head_hash } : null;
  }

  /**
   * The first event stored past the tenant's chain head: one the gateway did not write, since
   * events and the head move in one transaction. One statement in a transaction of its own, so it
   * reads head and events at one moment (on SQLite, not in the middle of a writer's transaction).
   * The head is a scalar subquery, not a joined table: MariaDB then reads `seq >` it as a range of
   * (tenant_id, seq) — joined, it walked every event of the tenant (ADR 051).
   */
  async firstEventPastHead(tenantId: string): Promise<{ id: string; seq: number } | null> {
    const [row] = await this.transactions.run(
      (em) =>
        em.query(
          `SELECT e.id, e.seq FROM audit_events e
           WHERE e.tenant_id = ?
             AND e.seq > (SELECT COALESCE(MAX(h.seq), 0) FROM audit_chain_heads h WHERE h.tenant_id = ?)
           ORDER BY e.seq LIMIT 1`,
          [tenantId, tenantId],
        ) as Promise<{ id: string | number; seq: string | number }[]>,
    );
    return row ? { id: String(row.id), seq: Number(row.seq) } : null;
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
    return rows.map(toStored);
  }

  /** A tenant's newest checkpoint (the one covering the most events), or null. */
  async latest(tenantId: string): Promise<StoredCheckpoint | null> {
    const row = await this.dataSource.getRepository(AuditCheckpointEntity).findOne({
      where: { tenantId },
      order: { seq: 'DESC', id: 'DESC' },
    });
    return row ? toStored(row) : null;
  }
}
