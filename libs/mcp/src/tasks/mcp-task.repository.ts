import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LessThan, MoreThan, type DataSource } from 'typeorm';
import { McpTaskEntity } from './mcp-task.entity.js';

/** A task's key: task ids are unique per tenant, and every statement names both. */
export interface McpTaskRef {
  readonly tenantId: string;
  readonly taskId: string;
}

/** A new task, as `tools/call` with `params.task` creates it. */
export interface NewMcpTask extends McpTaskRef {
  readonly principalId: string;
  readonly agentType: string;
  readonly tool: string;
  readonly ttlMs: number;
}

/** The one owner of `mcp_tasks`. Transitions name the status they expect (true when one moved). */
@Injectable()
export class McpTaskRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(McpTaskEntity);
  }

  async create(task: NewMcpTask, at = new Date()): Promise<McpTaskEntity> {
    const row = Object.assign(new McpTaskEntity(), {
      ...task,
      status: 'working',
      result: null,
      createdAt: at,
      updatedAt: at,
      expiresAt: new Date(at.getTime() + task.ttlMs),
    });
    await this.repo.insert(row);
    return row;
  }

  /** A task of one principal of a tenant: another tenant's or another key's id is not found. */
  findOwned(ref: McpTaskRef, principalId: string): Promise<McpTaskEntity | null> {
    return this.repo.findOne({ where: { tenantId: ref.tenantId, taskId: ref.taskId, principalId } });
  }

  /**
   * One page of the live tasks of a principal at one agent type, newest first. The cursor is the
   * last task id of the previous page (task ids are UUIDv7: ordered by creation to the millisecond).
   */
  listOwned(
    owner: { readonly tenantId: string; readonly principalId: string; readonly agentType: string },
    after: string | undefined,
    limit: number,
    now = new Date(),
  ): Promise<McpTaskEntity[]> {
    return this.repo.find({
      where: {
        ...owner,
        expiresAt: MoreThan(now),
        ...(after ? { taskId: LessThan(after) } : {}),
      },
      order: { taskId: 'DESC' },
      take: limit,
    });
  }

  /** The call answered without parking: its result is the task's. */
  settle(ref: McpTaskRef, result: Record<string, unknown>): Promise<boolean> {
    return this.move(ref, 'settled', { result });
  }

  cancel(ref: McpTaskRef): Promise<boolean> {
    return this.move(ref, 'cancelled', {});
  }

  /** Deletes tasks past their ttl. */
  async deleteExpired(now = new Date()): Promise<number> {
    return (await this.repo.delete({ expiresAt: LessThan(now) })).affected ?? 0;
  }

  private async move(
    ref: McpTaskRef,
    to: McpTaskEntity['status'],
    fields: Partial<Pick<McpTaskEntity, 'result'>>,
  ): Promise<boolean> {
    const moved = await this.repo
      .createQueryBuilder()
      .update(McpTaskEntity)
      .set({ status: to, updatedAt: new Date(), ...(fields as object) })
      .where('tenant_id = :tenantId AND task_id = :taskId AND status = :from', { ...ref, from: 'working' })
      .execute();
    return (moved.affected ?? 0) > 0;
  }
}
