import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, type Repository } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity.js';

/** The only way to the `api_keys` table. */
@Injectable()
export class ApiKeyRepository {
  constructor(@InjectRepository(ApiKeyEntity) private readonly repo: Repository<ApiKeyEntity>) {}

  findActiveByHash(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.repo.findOne({ where: { keyHash, revokedAt: IsNull() } });
  }

  findById(id: string): Promise<ApiKeyEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  async insert(key: ApiKeyEntity): Promise<void> {
    await this.repo.insert(key);
  }

  /** Keys visible to a scope: one tenant's, or all when `tenantId` is undefined. */
  list(tenantId?: string): Promise<ApiKeyEntity[]> {
    return this.repo.find({
      where: tenantId === undefined ? {} : { tenantId },
      order: { createdAt: 'DESC' },
    });
  }

  /** Revokes a key; true when this call revoked it (false if it was already revoked). */
  async revoke(id: string, at: Date): Promise<boolean> {
    const result = await this.repo.update({ id, revokedAt: IsNull() }, { revokedAt: at });
    return (result.affected ?? 0) > 0;
  }

  activeBootstrapKeys(): Promise<ApiKeyEntity[]> {
    return this.repo.find({ where: { bootstrap: true, revokedAt: IsNull() } });
  }
}
