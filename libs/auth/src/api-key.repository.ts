import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { TransactionRunner } from '@toolgate/database';
import { In, IsNull, type EntityManager, type Repository } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity.js';

/** The only way to the `api_keys` table. */
@Injectable()
export class ApiKeyRepository {
  constructor(
    @InjectRepository(ApiKeyEntity) private readonly repo: Repository<ApiKeyEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  findActiveByHash(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.repo.findOne({ where: { keyHash, revokedAt: IsNull() } });
  }

  /** The key with this hash, revoked or not (a hash stays taken after its key is revoked). */
  findByHash(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.repo.findOne({ where: { keyHash } });
  }

  /** The owners of keys by id (keys without an owner are left out). */
  async ownersOf(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.repo.find({ where: { id: In([...ids]) }, select: { id: true, owner: true } });
    return new Map(rows.filter((r) => r.owner).map((r) => [r.id, r.owner!]));
  }

  /** The roles of the keys `owner` answers for that are not revoked (in `em`'s transaction when given). */
  async activeRolesOwnedBy(owner: string, em?: EntityManager): Promise<ApiKeyEntity['role'][]> {
    const rows = await (em ? em.getRepository(ApiKeyEntity) : this.repo).find({
      where: { owner, revokedAt: IsNull() },
      select: { id: true, role: true },
    });
    return rows.map((r) => r.role);
  }

  /** Whether a key with this id exists and is not revoked. */
  async isActive(id: string): Promise<boolean> {
    return (await this.repo.count({ where: { id, revokedAt: IsNull() } })) > 0;
  }

  findById(id: string): Promise<ApiKeyEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  /** Inserts a key; `within` runs in the same transaction (its audit event commits with it). */
  async insert(key: ApiKeyEntity, within?: (em: EntityManager) => Promise<void>): Promise<void> {
    await this.transactions.run(async (em) => {
      await em.insert(ApiKeyEntity, key);
      if (within) await within(em);
    });
  }

  /** Keys visible to a scope: one tenant's, or all when `tenantId` is undefined. */
  list(tenantId?: string): Promise<ApiKeyEntity[]> {
    return this.repo.find({
      where: tenantId === undefined ? {} : { tenantId },
      order: { createdAt: 'DESC' },
    });
  }

  /** Revokes a key; true when this call revoked it (false if it was already revoked). */
  async revoke(id: string, at: Date, within?: (em: EntityManager) => Promise<void>): Promise<boolean> {
    return this.transactions.run(async (em) => {
      const result = await em.update(ApiKeyEntity, { id, revokedAt: IsNull() }, { revokedAt: at });
      const revoked = (result.affected ?? 0) > 0;
      if (revoked && within) await within(em);
      return revoked;
    });
  }

  /** Sets the owner of a key that is not revoked; `within` runs in the same transaction. False: none such. */
  async changeOwner(
    id: string,
    owner: string | null,
    within?: (em: EntityManager) => Promise<void>,
  ): Promise<boolean> {
    return this.transactions.run(async (em) => {
      const result = await em.update(ApiKeyEntity, { id, revokedAt: IsNull() }, { owner });
      const changed = (result.affected ?? 0) > 0;
      if (changed && within) await within(em);
      return changed;
    });
  }

  activeBootstrapKeys(): Promise<ApiKeyEntity[]> {
    return this.repo.find({ where: { bootstrap: true, revokedAt: IsNull() } });
  }
}
