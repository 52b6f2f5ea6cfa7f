import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isMysql, toSqlDateTime, type ReadStatement, type WriteStatement } from '@toolgate/database';
import type { DataSource } from 'typeorm';
import { TenantTokenDayEntity } from '../entities/tenant-token-day.entity.js';

/** One tenant's tokens of one day. */
export interface TenantTokenDay {
  readonly tenantId: string;
  readonly tokens: number;
}

const INSERT = 'INSERT INTO tenant_token_days (tenant_id, day, tokens, updated_at) VALUES (?, ?, ?, ?)';

/**
 * The day counters in the database, so that every gateway adds to and reads the same numbers:
 * an add is one atomic upsert (no read-modify-write), concurrent runs of a tenant never lose a turn.
 */
@Injectable()
export class TokenDayRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async add(tenantId: string, day: string, tokens: number, at = new Date()): Promise<void> {
    const { sql, params } = this.addition(tenantId, day, tokens, at);
    await this.dataSource.query(sql, [...params]);
  }

  /** The atomic upsert of `add`, for a caller's transaction. */
  addition(tenantId: string, day: string, tokens: number, at: Date): WriteStatement {
    const sql = isMysql(this.dataSource)
      ? `${INSERT} ON DUPLICATE KEY UPDATE tokens = tokens + VALUES(tokens), updated_at = VALUES(updated_at)`
      : `${INSERT} ON CONFLICT(tenant_id, day) DO UPDATE SET tokens = tokens + excluded.tokens, updated_at = excluded.updated_at`;
    return { sql, params: [tenantId, day, tokens, toSqlDateTime(at)] };
  }

  /** The read of `tokens` as a statement a caller's write carries; `tokensOf` reads its rows. */
  reading(tenantId: string, day: string): ReadStatement {
    return {
      sql: 'SELECT tokens FROM tenant_token_days WHERE tenant_id = ? AND day = ?',
      params: [tenantId, day],
    };
  }

  tokensOf(rows: readonly Record<string, unknown>[]): number {
    return Number(rows[0]?.tokens ?? 0);
  }

  async tokens(tenantId: string, day: string): Promise<number> {
    const row = await this.dataSource
      .getRepository(TenantTokenDayEntity)
      .findOne({ where: { tenantId, day }, select: { tokens: true } });
    return row?.tokens ?? 0;
  }

  /** Every tenant's tokens of the day (one tenant's for a tenant scope), by tenant id. */
  async ofDay(day: string, scope: string | null): Promise<TenantTokenDay[]> {
    const rows = await this.dataSource.getRepository(TenantTokenDayEntity).find({
      where: scope === null ? { day } : { day, tenantId: scope },
      order: { tenantId: 'ASC' },
    });
    return rows.map((r) => ({ tenantId: r.tenantId, tokens: r.tokens }));
  }
}
