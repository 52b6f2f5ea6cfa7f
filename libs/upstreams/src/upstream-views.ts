import type { ImportedToolView, UpstreamView } from '@toolgate/contract';
import type { UpstreamServerEntity } from './entities/upstream-server.entity.js';
import type { UpstreamToolEntity } from './entities/upstream-tool.entity.js';

export function toUpstreamView(
  server: UpstreamServerEntity,
  tools: readonly UpstreamToolEntity[],
): UpstreamView {
  const count = (status: UpstreamToolEntity['status']) => tools.filter((t) => t.status === status).length;
  return {
    name: server.name,
    kind: server.kind,
    url: server.url,
    baseUrl: server.baseUrl ?? null,
    auth:
      server.authHeader && server.authEnv ? { header: server.authHeader, secretEnv: server.authEnv } : null,
    timeoutMs: server.timeoutMs,
    tools: { active: count('active'), quarantined: count('quarantined'), removed: count('removed') },
    createdAt: server.createdAt.toISOString(),
    updatedAt: server.updatedAt.toISOString(),
  };
}

export function toImportedView(row: UpstreamToolEntity): ImportedToolView {
  return {
    toolgateName: row.toolgateName,
    upstreamName: row.upstreamName,
    riskLevel: row.riskLevel,
    dataDomains: row.dataDomains,
    timeoutMs: row.timeoutMs,
    status: row.status,
    fingerprint: row.pinnedFingerprint,
    pendingFingerprint: row.pendingFingerprint,
    reviewedBy: row.reviewedBy,
    reviewedAt: row.reviewedAt ? row.reviewedAt.toISOString() : null,
  };
}
