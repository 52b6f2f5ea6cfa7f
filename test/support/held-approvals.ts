import { Redis } from 'ioredis';
import type { RawSql } from './raw-sql.js';

/**
 * Leaves parked calls as a gateway that died between its decision's commit and its claim leaves
 * them: approval `approved`, call `queued`, and held in Redis under the gateway's instance id (what
 * `ApprovalWakeups.hold` writes). Then kill that gateway: the others must take the calls over.
 * Written behind the gateway's back because the real window is a few milliseconds wide.
 */
export async function leaveApprovedCallsHeld(
  sql: RawSql,
  redisUrl: string,
  redis: { prefix: string; instanceId: string },
  tenantId: string,
  callIds: readonly string[],
): Promise<void> {
  const now = new Date();
  const marks = callIds.map(() => '?').join(', ');
  await sql.query(
    `UPDATE approvals SET status = 'approved', decided_at = ? WHERE tenant_id = ? AND call_id IN (${marks})`,
    [now, tenantId, ...callIds],
  );
  await sql.query(
    `UPDATE tool_calls SET status = 'queued', updated_at = ? WHERE tenant_id = ? AND call_id IN (${marks})`,
    [now, tenantId, ...callIds],
  );
  const client = new Redis(redisUrl);
  try {
    const ns = `${redis.prefix}:approvals`;
    await client
      .multi()
      .sadd(`${ns}:holding:${redis.instanceId}`, ...callIds.map((id) => JSON.stringify([tenantId, id])))
      .sadd(`${ns}:holders`, redis.instanceId)
      .exec();
  } finally {
    client.disconnect();
  }
}
