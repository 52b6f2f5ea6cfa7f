import { Injectable, Logger } from '@nestjs/common';
import { AuditTrail, type AuditActor } from '@toolgate/audit';
import type { RefreshUpstreamResult } from '@toolgate/contract';
import { BindingResolver } from '@toolgate/tenancy';
import type { UpstreamServerEntity } from './entities/upstream-server.entity.js';
import type { UpstreamToolEntity } from './entities/upstream-tool.entity.js';
import { changedFields, fingerprintOf, pinnable } from './fingerprint.js';
import type { UpstreamToolDefinition } from './sources/tool-source.js';
import { UpstreamConnections } from './upstream-connections.js';
import { listLive } from './upstream-failures.js';
import { UpstreamTenantTools } from './upstream-tenant-tools.js';
import { UpstreamRepository } from './upstream.repository.js';

/** The actor of changes the gateway itself notices (periodic and notified refreshes). */
export const REFRESH_ACTOR: AuditActor = { type: 'system', id: 'upstream-refresh' };

export type Transition = { kind: keyof RefreshUpstreamResult; change: Partial<UpstreamToolEntity> } | null;

/** What one imported tool becomes given the upstream's current definition (undefined: gone). */
export function transitionOf(row: UpstreamToolEntity, live: UpstreamToolDefinition | undefined): Transition {
  if (!live) {
    return row.status === 'removed'
      ? null
      : { kind: 'removed', change: { status: 'removed', pendingDefinition: null, pendingFingerprint: null } };
  }
  const fingerprint = fingerprintOf(live);
  if (fingerprint === row.pinnedFingerprint) {
    // Back to exactly what was reviewed: a removed tool returns; a quarantined one stays for review.
    return row.status === 'removed' ? { kind: 'restored', change: { status: 'active' } } : null;
  }
  if (row.status === 'quarantined' && row.pendingFingerprint === fingerprint) return null;
  return {
    kind: 'quarantined',
    change: { status: 'quarantined', pendingDefinition: pinnable(live), pendingFingerprint: fingerprint },
  };
}

/**
 * Compares a server's live tools with the pinned definitions: a changed fingerprint quarantines
 * the tool (the new definition waits as pending), a tool gone upstream is removed; every change is
 * audited on the tenant's chain in the transaction that makes it.
 */
@Injectable()
export class UpstreamPinning {
  private readonly logger = new Logger(UpstreamPinning.name);

  constructor(
    private readonly repo: UpstreamRepository,
    private readonly connections: UpstreamConnections,
    private readonly tenantTools: UpstreamTenantTools,
    private readonly resolver: BindingResolver,
    private readonly audit: AuditTrail,
  ) {}

  async refresh(
    server: UpstreamServerEntity,
    actor: AuditActor = REFRESH_ACTOR,
  ): Promise<RefreshUpstreamResult> {
    const client = await this.connections.clientFor(server);
    const live = new Map((await listLive(client)).map((t) => [t.name, t]));
    const result: RefreshUpstreamResult = { unchanged: [], quarantined: [], removed: [], restored: [] };
    const rows = await this.repo.toolsOfServer(server.tenantId, server.id);
    let changed = false;
    for (const row of rows) {
      const transition = transitionOf(row, live.get(row.upstreamName));
      if (!transition) {
        result.unchanged.push(row.toolgateName);
        continue;
      }
      const applied = await this.repo.run(async (em) => {
        if (!(await this.repo.updateTool(em, row, transition.change))) return false;
        const pending = transition.change.pendingDefinition;
        await this.audit.recordIn(em, [
          {
            event: 'upstream_changed',
            tenantId: server.tenantId,
            actor,
            tool: row.toolgateName,
            riskLevel: row.riskLevel,
            details: {
              kind: `tool_${transition.kind}`,
              upstream: server.name,
              upstreamTool: row.upstreamName,
              pinnedFingerprint: row.pinnedFingerprint,
              ...(pending
                ? {
                    pendingFingerprint: transition.change.pendingFingerprint,
                    changedFields: changedFields(row.pinnedDefinition, pending),
                  }
                : {}),
            },
          },
        ]);
        return true;
      });
      if (applied) {
        changed = true;
        result[transition.kind].push(row.toolgateName);
        this.logger.warn(`tenant ${server.tenantId}: upstream tool ${row.toolgateName} ${transition.kind}`);
      } else result.unchanged.push(row.toolgateName);
    }
    if (changed) this.changed(server.tenantId);
    return result;
  }

  /** After any change of a tenant's tools: rebuild contracts and bindings on next use. */
  changed(tenantId: string): void {
    this.tenantTools.forget(tenantId);
    this.resolver.invalidate(tenantId);
  }
}
