import type { ImportedToolView, UpstreamView } from '@toolgate/contract';
import type { UpstreamServerEntity } from './entities/upstream-server.entity.js';
import type { UpstreamToolEntity } from './entities/upstream-tool.entity.js';
import { fingerprintOf, pinnable } from './fingerprint.js';
import type { UpstreamToolDefinition } from './sources/tool-source.js';

/** Live tools fingerprinted between two yields to the event loop. */
const LIVE_VIEW_CHUNK = 50;

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
    region: server.region ?? null,
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

/**
 * Fingerprints cost ~0.1 ms each (canonical JSON + SHA-256): a source of hundreds of tools
 * yields to the event loop every LIVE_VIEW_CHUNK of them instead of holding it for tens of ms.
 */
export async function toLiveView(
  live: readonly UpstreamToolDefinition[],
  imported: readonly UpstreamToolEntity[],
) {
  const byName = new Map(imported.map((r) => [r.upstreamName, r]));
  const view = [];
  for (const [i, def] of live.entries()) {
    if (i > 0 && i % LIVE_VIEW_CHUNK === 0) await new Promise((resolve) => setImmediate(resolve));
    const row = byName.get(def.name);
    view.push({
      definition: pinnable(def),
      fingerprint: fingerprintOf(def),
      imported: !!row,
      toolgateName: row?.toolgateName ?? null,
      status: row?.status ?? null,
    });
  }
  return view;
}
