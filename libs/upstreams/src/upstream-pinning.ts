import { Injectable, Logger } from '@nestjs/common';
import { AuditTrail, type AuditActor } from '@toolgate/audit';
import type { RefreshUpstreamResult } from '@toolgate/contract';
import { BindingResolver } from '@toolgate/tenancy';
import type { UpstreamServerEntity } from './entities/upstream-server.entity.js';
import type { UpstreamToolEntity } from './entities/upstream-tool.entity.js';
import {
  changedFields,
  describedFingerprintOf,
  FINGERPRINT_VERSION,
  fingerprintOf,
  pinnable,
} from './fingerprint.js';
import type { UpstreamCallPlan, UpstreamToolDefinition } from './sources/tool-source.js';
import { instructionLikeIn } from './instruction-like.js';
import { UpstreamConnections } from './upstream-connections.js';
import { listLive } from './upstream-failures.js';
import { UpstreamTenantTools } from './upstream-tenant-tools.js';
import { UpstreamRepository } from './upstream.repository.js';

/** The actor of changes the gateway itself notices (periodic and notified refreshes). */
export const REFRESH_ACTOR: AuditActor = { type: 'system', id: 'upstream-refresh' };

/** What a refresh did to one tool; `repinned`: a scheme-1 pin took its call plan, nothing else changed. */
export type TransitionKind = keyof RefreshUpstreamResult | 'repinned';
export type Transition = { kind: TransitionKind; change: Partial<UpstreamToolEntity> } | null;

/** The answer's list a transition is reported in: a re-pinned tool is unchanged for its callers. */
const REPORTED_AS: Record<TransitionKind, keyof RefreshUpstreamResult> = {
  unchanged: 'unchanged',
  quarantined: 'quarantined',
  removed: 'removed',
  restored: 'restored',
  repinned: 'unchanged',
};

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
  if (takesCallPlan(row, live)) {
    return {
      kind: row.status === 'removed' ? 'restored' : 'repinned',
      change: {
        status: 'active',
        pinnedDefinition: pinnable(live),
        pinnedFingerprint: fingerprint,
        fingerprintVersion: FINGERPRINT_VERSION,
      },
    };
  }
  if (row.status === 'quarantined' && row.pendingFingerprint === fingerprint) return null;
  return {
    kind: 'quarantined',
    change: { status: 'quarantined', pendingDefinition: pinnable(live), pendingFingerprint: fingerprint },
  };
}

/**
 * A tool pinned before call plans were (scheme 1) takes the plan its source describes now, once,
 * when everything the reviewed definition described is unchanged and the plan agrees with what it
 * implied. Until then the gateway sent whatever plan the document held at each call, so this pins
 * what calls were already doing; every later change of the plan quarantines (ADR 016, amendment).
 */
function takesCallPlan(row: UpstreamToolEntity, live: UpstreamToolDefinition): boolean {
  return (
    row.fingerprintVersion < FINGERPRINT_VERSION &&
    row.status !== 'quarantined' &&
    live.callPlan !== undefined &&
    row.pinnedDefinition.callPlan === undefined &&
    describedFingerprintOf(live) === row.pinnedFingerprint &&
    planImpliedBy(row.pinnedDefinition, live.callPlan)
  );
}

/**
 * What a scheme-1 OpenAPI definition says of its call plan: its annotations name the method's
 * kind (read-only GET/HEAD, idempotent PUT, destructive DELETE, else POST/PATCH) and its input
 * properties are exactly the plan's arguments.
 */
export function planImpliedBy(pinned: UpstreamToolDefinition, plan: UpstreamCallPlan): boolean {
  if (!methodsImpliedBy(pinned.annotations ?? {}).includes(plan.method)) return false;
  const properties = pinned.inputSchema.properties;
  const inputs = new Set(properties && typeof properties === 'object' ? Object.keys(properties) : []);
  const args = [...plan.parameters.map((p) => p.argName), ...(plan.body ? [plan.body.argName] : [])];
  return args.length === inputs.size && args.every((arg) => inputs.has(arg));
}

/** The methods an OpenAPI tool's annotations were made from (see `annotationsFor` in openapi-operations.ts). */
function methodsImpliedBy(annotations: Record<string, unknown>): readonly string[] {
  if (annotations.readOnlyHint === true) return ['GET', 'HEAD'];
  if (annotations.destructiveHint === true) return ['DELETE'];
  if (annotations.idempotentHint === true) return ['PUT'];
  return ['POST', 'PATCH'];
}

/** What the audit event of a transition says beyond its kind: fingerprints, changed fields, a new plan. */
function changeDetails(
  row: UpstreamToolEntity,
  transition: NonNullable<Transition>,
): Record<string, unknown> {
  const { change } = transition;
  const details: Record<string, unknown> = {
    upstreamTool: row.upstreamName,
    pinnedFingerprint: row.pinnedFingerprint,
  };
  if (change.pendingDefinition) {
    details.pendingFingerprint = change.pendingFingerprint;
    details.changedFields = changedFields(row.pinnedDefinition, change.pendingDefinition);
    // The new definition waits for review: the reviewer is told if it now speaks to the model.
    const instructionLike = instructionLikeIn(change.pendingDefinition);
    if (instructionLike.length) details.instructionLike = instructionLike;
  }
  if (change.pinnedDefinition) {
    // A re-pin under a new fingerprint scheme: the trail keeps the plan it took.
    details.repinnedFingerprint = change.pinnedFingerprint;
    details.fingerprintVersion = change.fingerprintVersion;
    details.callPlan = change.pinnedDefinition.callPlan;
  }
  return details;
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

  /**
   * Compares the server's tools with their pins and records what changed. `signal` ends the
   * listing (a refresh's time limit); a change already written stays written.
   */
  async refresh(
    server: UpstreamServerEntity,
    actor: AuditActor = REFRESH_ACTOR,
    signal?: AbortSignal,
  ): Promise<RefreshUpstreamResult> {
    const client = await this.connections.clientFor(server);
    const live = new Map((await listLive(client, signal)).map((t) => [t.name, t]));
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
              ...changeDetails(row, transition),
            },
          },
        ]);
        return true;
      });
      if (applied) {
        changed = true;
        result[REPORTED_AS[transition.kind]].push(row.toolgateName);
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
