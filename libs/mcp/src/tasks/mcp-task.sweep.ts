import { Injectable, Logger } from '@nestjs/common';
import { PeriodicSweep } from '@toolgate/database';
import { McpTaskRepository } from './mcp-task.repository.js';

/** How often a gateway deletes tasks past their ttl (any gateway may; the delete is idempotent). */
const SWEEP_MS = 10 * 60 * 1000;

/** Deletes MCP tasks past their ttl (the spec lets a receiver forget them then). */
@Injectable()
export class McpTaskSweep extends PeriodicSweep {
  constructor(private readonly tasks: McpTaskRepository) {
    super(SWEEP_MS, new Logger(McpTaskSweep.name), 'MCP task sweep');
  }

  protected async sweep(): Promise<void> {
    const n = await this.tasks.deleteExpired();
    if (n) this.logger.log(`${n} expired MCP task(s) deleted`);
  }
}
