import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUniqueViolation, TransactionRunner } from '@toolgate/database';
import type { DataSource, EntityManager } from 'typeorm';
import type { BindingTool } from './config/tenant-file.schema.js';
import { AgentBindingEntity } from './entities/agent-binding.entity.js';
import { BindingHistoryEntity } from './entities/binding-history.entity.js';
import { TenantEntity } from './entities/tenant.entity.js';

/** A tenant to import, with the bindings of each agent type. */
export interface TenantImport {
  readonly tenant: Omit<TenantEntity, 'createdAt' | 'updatedAt'>;
  readonly agentTypes: readonly { agentType: string; description: string; tools: BindingTool[] }[];
}

/** The only way to the tenancy tables: tenants, agent_bindings, binding_history. */
@Injectable()
export class TenantRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {}

  findTenant(id: string): Promise<TenantEntity | null> {
    return this.dataSource.getRepository(TenantEntity).findOne({ where: { id } });
  }

  listTenants(): Promise<TenantEntity[]> {
    return this.dataSource.getRepository(TenantEntity).find({ order: { id: 'ASC' } });
  }

  bindingsOf(tenantId: string): Promise<AgentBindingEntity[]> {
    return this.dataSource
      .getRepository(AgentBindingEntity)
      .find({ where: { tenantId }, order: { agentType: 'ASC' } });
  }

  /**
   * Creates a tenant with version 1 of each agent type's bindings, in one transaction.
   * Returns false when the tenant already exists (another gateway imported it first).
   */
  async importTenant(
    data: TenantImport,
    by: string,
    within?: (em: EntityManager) => Promise<void>,
  ): Promise<boolean> {
    const now = new Date();
    try {
      await this.transactions.run(async (em) => {
        await em.insert(
          TenantEntity,
          Object.assign(new TenantEntity(), data.tenant, { createdAt: now, updatedAt: now }),
        );
        for (const a of data.agentTypes) {
          await em.insert(
            AgentBindingEntity,
            Object.assign(new AgentBindingEntity(), {
              tenantId: data.tenant.id,
              agentType: a.agentType,
              description: a.description,
              version: 1,
              tools: a.tools,
              updatedAt: now,
              updatedBy: by,
            }),
          );
          await em.insert(
            BindingHistoryEntity,
            Object.assign(new BindingHistoryEntity(), {
              tenantId: data.tenant.id,
              agentType: a.agentType,
              version: 1,
              tools: a.tools,
              kind: 'import',
              changedBy: by,
              changedAt: now,
            }),
          );
        }
        // The audit events of the import commit with it, or neither does.
        if (within) await within(em);
      });
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }
}
