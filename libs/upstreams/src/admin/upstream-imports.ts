import { Injectable } from '@nestjs/common';
import { AuditTrail, type AuditActor } from '@toolgate/audit';
import type { ImportUpstreamToolsBody } from '@toolgate/contract';
import { isUniqueViolation } from '@toolgate/database';
import { BindingAdmin, BindingResolver } from '@toolgate/tenancy';
import { IMPORTED_TOOL_NAME_PATTERN } from '../constants.js';
import { UpstreamToolEntity } from '../entities/upstream-tool.entity.js';
import { FINGERPRINT_VERSION, fingerprintOf, pinnable } from '../fingerprint.js';
import { MAX_TOOL_NAME_LENGTH, snakeName } from '../openapi/tool-names.js';
import { instructionLikeIn } from '../instruction-like.js';
import type { UpstreamToolDefinition } from '../sources/tool-source.js';
import { tenantUpstreamSettingsSchema } from '../tenant-upstream-settings.js';
import { UpstreamConnections } from '../upstream-connections.js';
import { alreadyExists, invalidRequest, listLive } from '../upstream-failures.js';
import { UpstreamPinning } from '../upstream-pinning.js';
import { contractProblems } from '../upstream-tenant-tools.js';
import { toImportedView, toLiveView } from '../upstream-views.js';
import { UpstreamRepository } from '../upstream.repository.js';
import { UpstreamLookup } from './upstream-lookup.js';

/** A readable Toolgate name for an upstream tool: `<server>__<tool in snake_case>`, within the limit. */
export function defaultToolgateName(server: string, tool: string): string {
  return `${server}__${snakeName(tool, MAX_TOOL_NAME_LENGTH - server.length - 2, 't_')}`;
}

/**
 * An upstream's tools made the tenant's: its live tools shown (each marked imported or not), and
 * chosen ones imported — pinned as listed now, named `<server>__<tool>`, checked against the
 * toolkit's rules, audited — and bound to agent types through the binding admin when asked.
 */
@Injectable()
export class UpstreamImports {
  constructor(
    private readonly repo: UpstreamRepository,
    private readonly lookup: UpstreamLookup,
    private readonly connections: UpstreamConnections,
    private readonly pinning: UpstreamPinning,
    private readonly bindings: BindingAdmin,
    private readonly resolver: BindingResolver,
    private readonly audit: AuditTrail,
  ) {}

  /** The server's tools as it lists them now, each marked imported or not. */
  async liveTools(tenantId: string, name: string) {
    const server = await this.lookup.server(tenantId, name);
    const live = await listLive(await this.connections.clientFor(server));
    return await toLiveView(live, await this.repo.toolsOfServer(tenantId, server.id));
  }

  /** Imports chosen tools, pinned as listed now; binds them to `bindTo` through the binding admin. */
  async import(tenantId: string, name: string, body: ImportUpstreamToolsBody, actor: AuditActor) {
    const server = await this.lookup.server(tenantId, name);
    const live = new Map((await listLive(await this.connections.clientFor(server))).map((t) => [t.name, t]));
    const existing = await this.repo.toolsOfServer(tenantId, server.id);
    const quarantineInstructionLike = await this.quarantinesInstructionLike(tenantId);
    const now = new Date();
    const rows = body.tools.map((t, i) => {
      const def = live.get(t.name);
      if (!def) throw invalidRequest(`the upstream has no tool "${t.name}"`, `tools.${i}.name`);
      if (
        existing.some((e) => e.upstreamName === t.name) ||
        body.tools.findIndex((o) => o.name === t.name) !== i
      )
        throw alreadyExists(`tool ${t.name} of ${server.name}`);
      const toolgateName = t.toolgateName ?? defaultToolgateName(server.name, t.name);
      // The server's name is the namespace: no import can take a registry tool's or another server's name.
      if (
        !toolgateName.startsWith(`${server.name}__`) ||
        !IMPORTED_TOOL_NAME_PATTERN.test(toolgateName) ||
        toolgateName.length > 64
      )
        throw invalidRequest(
          `toolgateName "${toolgateName}" must be ${server.name}__<snake_case> and at most 64 characters`,
          `tools.${i}.toolgateName`,
        );
      const definition = pinnable(def);
      const problems = contractProblems({
        toolgateName,
        riskLevel: t.riskLevel,
        dataDomains: t.dataDomains ?? [],
        timeoutMs: t.timeoutMs ?? server.timeoutMs,
        definition,
      });
      if (problems.length) throw invalidRequest(`tool "${t.name}": ${problems.join('; ')}`, `tools.${i}`);
      const fingerprint = fingerprintOf(definition);
      // Held for review like a changed definition: pending is what was listed, nothing runs until accepted.
      const held = quarantineInstructionLike && instructionLikeIn(definition).length > 0;
      return Object.assign(new UpstreamToolEntity(), {
        tenantId,
        toolgateName,
        serverId: server.id,
        upstreamName: t.name,
        riskLevel: t.riskLevel,
        dataDomains: t.dataDomains ?? [],
        timeoutMs: t.timeoutMs ?? null,
        pinnedDefinition: definition,
        pinnedFingerprint: fingerprint,
        fingerprintVersion: FINGERPRINT_VERSION,
        status: held ? ('quarantined' as const) : ('active' as const),
        pendingDefinition: held ? definition : null,
        pendingFingerprint: held ? fingerprint : null,
        reviewedBy: null,
        reviewedAt: null,
        createdAt: now,
        updatedAt: now,
      });
    });
    try {
      await this.repo.run(async (em) => {
        await this.repo.insertTools(em, rows);
        await this.audit.recordIn(
          em,
          rows.map((r) => ({
            event: 'upstream_changed' as const,
            tenantId,
            actor,
            tool: r.toolgateName,
            riskLevel: r.riskLevel,
            details: {
              kind: 'tool_imported',
              upstream: server.name,
              upstreamTool: r.upstreamName,
              fingerprint: r.pinnedFingerprint,
              dataDomains: r.dataDomains,
              ...flagged(r.pinnedDefinition),
              ...(r.status === 'quarantined' ? { quarantined: true } : {}),
            },
          })),
        );
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw alreadyExists(rows.map((r) => r.toolgateName).join(', '));
      throw err;
    }
    this.pinning.changed(tenantId);
    const boundTo = [];
    for (const agentType of body.bindTo ?? [])
      boundTo.push(await this.bind(tenantId, agentType, rows, actor));
    return { imported: rows.map(toImportedView), boundTo };
  }

  /** The tenant file's `upstreams.quarantineInstructionLike` (off when absent or unreadable). */
  private async quarantinesInstructionLike(tenantId: string): Promise<boolean> {
    const tenant = await this.resolver.tenant(tenantId);
    const parsed = tenantUpstreamSettingsSchema.safeParse(tenant?.settings.upstreams ?? {});
    return parsed.success && parsed.data.quarantineInstructionLike;
  }

  /** Adds the tools to an agent type's binding: a binding change with its version, history and audit. */
  private async bind(
    tenantId: string,
    agentType: string,
    rows: readonly UpstreamToolEntity[],
    actor: AuditActor,
  ) {
    const current = (await this.bindings.list(tenantId)).find((b) => b.agentType === agentType);
    const tools = [...(current?.tools ?? [])];
    for (const r of rows)
      if (!tools.some((t) => t.name === r.toolgateName)) tools.push({ name: r.toolgateName });
    const saved = await this.bindings.replace(
      tenantId,
      agentType,
      { version: current?.version ?? 0, tools },
      actor,
    );
    return { agentType, version: saved.version };
  }
}

/** `instructionLike`: what in an imported definition reads as instructions to the model (ADR 045). */
function flagged(definition: UpstreamToolDefinition): { instructionLike?: readonly string[] } {
  const found = instructionLikeIn(definition);
  return found.length ? { instructionLike: found } : {};
}
