import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { TransactionRunner } from '@toolgate/database';
import type { EntityManager, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { UpstreamServerEntity } from './entities/upstream-server.entity.js';
import { UpstreamToolEntity } from './entities/upstream-tool.entity.js';

/**
 * TypeORM's partial-entity type recurses into JSON columns and rejects `Record<string, unknown>`
 * schemas; the columns are plain JSON, so the row is written as it is.
 */
function asRow(row: Partial<UpstreamToolEntity>): QueryDeepPartialEntity<UpstreamToolEntity> {
  return row as QueryDeepPartialEntity<UpstreamToolEntity>;
}

/** Upstream servers and their imported tools; every query is scoped to one tenant. */
@Injectable()
export class UpstreamRepository {
  constructor(
    @InjectRepository(UpstreamServerEntity) private readonly servers: Repository<UpstreamServerEntity>,
    @InjectRepository(UpstreamToolEntity) private readonly tools: Repository<UpstreamToolEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  serversOf(tenantId: string): Promise<UpstreamServerEntity[]> {
    return this.servers.find({ where: { tenantId }, order: { name: 'ASC' } });
  }

  /** Every server of every tenant, for the periodic refresh. */
  allServers(): Promise<UpstreamServerEntity[]> {
    return this.servers.find({ order: { tenantId: 'ASC', name: 'ASC' } });
  }

  serverByName(tenantId: string, name: string): Promise<UpstreamServerEntity | null> {
    return this.servers.findOneBy({ tenantId, name });
  }

  toolsOf(tenantId: string): Promise<UpstreamToolEntity[]> {
    return this.tools.find({ where: { tenantId }, order: { toolgateName: 'ASC' } });
  }

  toolsOfServer(tenantId: string, serverId: string, em?: EntityManager): Promise<UpstreamToolEntity[]> {
    const repo = em ? em.getRepository(UpstreamToolEntity) : this.tools;
    return repo.find({ where: { tenantId, serverId }, order: { toolgateName: 'ASC' } });
  }

  /** One transaction: the change and its audit events commit together. */
  run<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.transactions.run(work);
  }

  async insertServer(em: EntityManager, row: UpstreamServerEntity): Promise<void> {
    await em.insert(UpstreamServerEntity, row);
  }

  async setServerRegion(
    em: EntityManager,
    tenantId: string,
    serverId: string,
    region: string | null,
    at: Date,
  ): Promise<void> {
    await em.update(UpstreamServerEntity, { tenantId, id: serverId }, { region, updatedAt: at });
  }

  async deleteServer(em: EntityManager, tenantId: string, serverId: string): Promise<void> {
    await em.delete(UpstreamToolEntity, { tenantId, serverId });
    await em.delete(UpstreamServerEntity, { tenantId, id: serverId });
  }

  async insertTools(em: EntityManager, rows: readonly UpstreamToolEntity[]): Promise<void> {
    if (rows.length) await em.insert(UpstreamToolEntity, rows.map(asRow));
  }

  /**
   * Writes a tool's new state only if it is still in the state read (`status` and pinned
   * fingerprint): two gateways refreshing at once cannot both record the same change.
   */
  async updateTool(
    em: EntityManager,
    read: Pick<UpstreamToolEntity, 'tenantId' | 'toolgateName' | 'status' | 'pinnedFingerprint'> & {
      pendingFingerprint: string | null;
    },
    change: Partial<UpstreamToolEntity>,
  ): Promise<boolean> {
    const res = await em
      .createQueryBuilder()
      .update(UpstreamToolEntity)
      .set(asRow({ ...change, updatedAt: new Date() }))
      .where('tenant_id = :tenantId AND toolgate_name = :name AND status = :status', {
        tenantId: read.tenantId,
        name: read.toolgateName,
        status: read.status,
      })
      .andWhere('pinned_fingerprint = :pinned', { pinned: read.pinnedFingerprint })
      .andWhere(
        read.pendingFingerprint === null ? 'pending_fingerprint IS NULL' : 'pending_fingerprint = :pending',
        { pending: read.pendingFingerprint },
      )
      .execute();
    return (res.affected ?? 0) > 0;
  }
}
