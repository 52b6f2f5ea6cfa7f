import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AgentRunSettingsView } from '@toolgate/contract';
import { isUniqueViolation, TransactionRunner } from '@toolgate/database';
import type { DataSource, EntityManager } from 'typeorm';
import type { BindingTool } from './config/tenant-file.schema.js';
import { AgentBindingEntity } from './entities/agent-binding.entity.js';
import { BindingHistoryEntity } from './entities/binding-history.entity.js';
import { TenantFileImportEntity } from './entities/tenant-file-import.entity.js';
import { TenantEntity } from './entities/tenant.entity.js';

/** A tenant to import, with the bindings of each agent type. */
export interface TenantImport {
  readonly tenant: Omit<TenantEntity, 'createdAt' | 'updatedAt'>;
  readonly agentTypes: readonly {
    agentType: string;
    description: string;
    tools: BindingTool[];
    run: AgentRunSettingsView;
  }[];
}

/** The only way to the tenancy tables: tenants, agent_bindings, binding_history, tenant_file_imports. */
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
              run: a.run,
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

  /** Every binding of every tenant (the tool catalog shows who binds what). */
  allBindings(): Promise<AgentBindingEntity[]> {
    return this.dataSource
      .getRepository(AgentBindingEntity)
      .find({ order: { tenantId: 'ASC', agentType: 'ASC' } });
  }

  /** Saved versions, newest first; one agent type's or the whole tenant's. */
  history(tenantId: string, agentType?: string, limit = 200): Promise<BindingHistoryEntity[]> {
    return this.dataSource.getRepository(BindingHistoryEntity).find({
      where: agentType ? { tenantId, agentType } : { tenantId },
      order: { changedAt: 'DESC', id: 'DESC' },
      take: limit,
    });
  }

  /** Creates an empty tenant; false when the id is taken. */
  createTenant(
    tenant: Omit<TenantEntity, 'createdAt' | 'updatedAt'>,
    within?: (em: EntityManager) => Promise<void>,
  ): Promise<boolean> {
    return this.importTenant({ tenant, agentTypes: [] }, 'admin', within);
  }

  /** Updates a tenant's name, locale, connectors or settings. */
  async updateTenant(
    id: string,
    fields: Partial<Pick<TenantEntity, 'name' | 'locale' | 'connectors' | 'settings'>>,
    within?: (em: EntityManager) => Promise<void>,
  ): Promise<void> {
    await this.transactions.run(async (em) => {
      await em.update(TenantEntity, { id }, { ...fields, updatedAt: new Date() } as never);
      if (within) await within(em);
    });
  }

  /**
   * Saves a new version of one agent type's bindings with optimistic concurrency: it succeeds
   * only if the stored version is still `expectedVersion` (0: the agent type must not exist yet).
   * Returns the new version, or null when someone else saved first.
   */
  async saveBinding(
    change: {
      tenantId: string;
      agentType: string;
      expectedVersion: number;
      description: string;
      tools: BindingTool[];
      run: AgentRunSettingsView;
      kind: string;
      by: string;
    },
    within?: (em: EntityManager, version: number) => Promise<void>,
  ): Promise<number | null> {
    const now = new Date();
    const version = change.expectedVersion + 1;
    try {
      return await this.transactions.run(async (em) => {
        if (change.expectedVersion === 0) {
          await em.insert(
            AgentBindingEntity,
            Object.assign(new AgentBindingEntity(), {
              tenantId: change.tenantId,
              agentType: change.agentType,
              description: change.description,
              version,
              tools: change.tools,
              run: change.run,
              updatedAt: now,
              updatedBy: change.by,
            }),
          );
        } else {
          const result = await em.update(
            AgentBindingEntity,
            { tenantId: change.tenantId, agentType: change.agentType, version: change.expectedVersion },
            {
              version,
              tools: change.tools as never,
              run: change.run as never,
              description: change.description,
              updatedAt: now,
              updatedBy: change.by,
            },
          );
          if (!result.affected) return null;
        }
        await em.insert(
          BindingHistoryEntity,
          Object.assign(new BindingHistoryEntity(), {
            tenantId: change.tenantId,
            agentType: change.agentType,
            version,
            tools: change.tools,
            kind: change.kind,
            changedBy: change.by,
            changedAt: now,
          }),
        );
        if (within) await within(em, version);
        return version;
      });
    } catch (err) {
      if (isUniqueViolation(err)) return null;
      throw err;
    }
  }

  /** The last import of a tenant's file; null when none was recorded. */
  lastFileImport(tenantId: string): Promise<TenantFileImportEntity | null> {
    return this.dataSource.getRepository(TenantFileImportEntity).findOne({ where: { tenantId } });
  }

  /** Records (or replaces) the last import of a tenant's file. */
  async recordFileImport(tenantId: string, fileHash: string, stateHash: string): Promise<void> {
    await this.dataSource
      .getRepository(TenantFileImportEntity)
      .upsert({ tenantId, fileHash, stateHash, importedAt: new Date() }, ['tenantId']);
  }
}
