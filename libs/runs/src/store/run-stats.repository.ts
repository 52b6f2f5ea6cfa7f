import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { RUN_STATUSES, type RunStatsRow, type RunStatus } from '@toolgate/contract';
import { toSqlDateTime } from '@toolgate/database';
import type { DataSource } from 'typeorm';

const noRuns = (): Record<RunStatus, number> =>
  Object.fromEntries(RUN_STATUSES.map((s) => [s, 0])) as Record<RunStatus, number>;

/** Runs for the admin overview: one grouped query over `agent_runs`. */
@Injectable()
export class RunStatsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The runs created between `from` and `to` (inclusive, like the overview's call counts), per
   * tenant and agent type: how many, how many in each status, and the tokens they spent.
   */
  async byAgentType(tenantScope: string | null, from: Date, to: Date): Promise<RunStatsRow[]> {
    const params: unknown[] = [toSqlDateTime(from), toSqlDateTime(to)];
    if (tenantScope) params.push(tenantScope);
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      // Aliases differ from column names: MySQL's GROUP BY prefers a column over a same-named alias.
      `SELECT r.tenant_id AS tenant, r.agent_type AS agent, r.status AS run_status, COUNT(*) AS runs,
              SUM(r.input_tokens) AS input_sum, SUM(r.output_tokens) AS output_sum
         FROM agent_runs r
        WHERE r.created_at >= ? AND r.created_at <= ? ${tenantScope ? 'AND r.tenant_id = ?' : ''}
        GROUP BY tenant, agent, run_status`,
      params,
    );
    const byKey = new Map<string, RunStatsRow>();
    for (const r of rows) {
      const tenantId = String(r.tenant);
      const agentType = String(r.agent);
      const key = `${tenantId}\u0000${agentType}`;
      let row = byKey.get(key);
      if (!row) {
        row = {
          tenantId,
          agentType,
          runs: 0,
          byStatus: noRuns(),
          usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        };
        byKey.set(key, row);
      }
      const runs = Number(r.runs);
      const input = Number(r.input_sum ?? 0);
      const output = Number(r.output_sum ?? 0);
      row.runs += runs;
      if ((RUN_STATUSES as readonly string[]).includes(String(r.run_status)))
        row.byStatus[String(r.run_status) as RunStatus] += runs;
      row.usage = {
        inputTokens: row.usage.inputTokens + input,
        outputTokens: row.usage.outputTokens + output,
        totalTokens: row.usage.totalTokens + input + output,
      };
    }
    return [...byKey.values()].sort(
      (x, y) => x.tenantId.localeCompare(y.tenantId) || x.agentType.localeCompare(y.agentType),
    );
  }
}
