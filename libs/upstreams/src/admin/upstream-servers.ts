import { Injectable } from '@nestjs/common';
import { AuditTrail, type AuditActor } from '@toolgate/audit';
import { BindingAdmin } from '@toolgate/tenancy';
import { UpstreamConnections } from '../upstream-connections.js';
import { UpstreamPinning } from '../upstream-pinning.js';
import { toImportedView, toUpstreamView } from '../upstream-views.js';
import { UpstreamRepository } from '../upstream.repository.js';
import { UpstreamLookup } from './upstream-lookup.js';

/** A tenant's registered upstreams: listed, read, refreshed, removed (and taken out of its bindings). */
@Injectable()
export class UpstreamServers {
  constructor(
    private readonly repo: UpstreamRepository,
    private readonly lookup: UpstreamLookup,
    private readonly connections: UpstreamConnections,
    private readonly pinning: UpstreamPinning,
    private readonly bindings: BindingAdmin,
    private readonly audit: AuditTrail,
  ) {}

  /** The tenant's upstreams, each with its imported tools counted by status. */
  async list(tenantId: string) {
    await this.lookup.requireTenant(tenantId);
    const tools = await this.repo.toolsOf(tenantId);
    return (await this.repo.serversOf(tenantId)).map((s) =>
      toUpstreamView(
        s,
        tools.filter((t) => t.serverId === s.id),
      ),
    );
  }

  /**
   * The region an upstream of the tenant declares (null: none declared); undefined when the tenant
   * has no upstream of that name. For the cross-border guard (ADR 047).
   */
  async regionOf(tenantId: string, name: string): Promise<string | null | undefined> {
    const server = await this.repo.serverByName(tenantId, name);
    return server ? (server.region ?? null) : undefined;
  }

  /** One upstream and its imported tools. */
  async get(tenantId: string, name: string) {
    const server = await this.lookup.server(tenantId, name);
    const tools = await this.repo.toolsOfServer(tenantId, server.id);
    return { upstream: toUpstreamView(server, tools), imported: tools.map(toImportedView) };
  }

  /**
   * Declares where the upstream processes what it is sent (ADR 047), audited as `upstream_changed`
   * `server_changed` with the region before and after. Its tools' calls read it from the next call.
   */
  async setRegion(tenantId: string, name: string, region: string | null, actor: AuditActor) {
    const server = await this.lookup.server(tenantId, name);
    const before = server.region ?? null;
    const at = new Date();
    await this.repo.run(async (em) => {
      await this.repo.setServerRegion(em, tenantId, server.id, region, at);
      await this.audit.recordIn(em, [
        {
          event: 'upstream_changed',
          tenantId,
          actor,
          details: {
            kind: 'server_changed',
            upstream: server.name,
            before: { region: before },
            after: { region },
          },
        },
      ]);
    });
    this.pinning.changed(tenantId);
    return this.get(tenantId, name);
  }

  /** Deletes the server and its imported tools; bindings naming them stop resolving them. */
  async remove(tenantId: string, name: string, actor: AuditActor): Promise<void> {
    const server = await this.lookup.server(tenantId, name);
    const tools = await this.repo.toolsOfServer(tenantId, server.id);
    await this.repo.run(async (em) => {
      await this.repo.deleteServer(em, tenantId, server.id);
      await this.audit.recordIn(em, [
        {
          event: 'upstream_changed',
          tenantId,
          actor,
          details: { kind: 'server_deleted', upstream: server.name, tools: tools.map((t) => t.toolgateName) },
        },
      ]);
    });
    await this.connections.drop(tenantId, server.id);
    this.pinning.changed(tenantId);
    await this.unbind(tenantId, new Set(tools.map((t) => t.toolgateName)), actor);
  }

  /** Takes deleted tools out of every binding naming them: binding changes with history and audit. */
  private async unbind(tenantId: string, names: ReadonlySet<string>, actor: AuditActor): Promise<void> {
    if (!names.size) return;
    for (const binding of await this.bindings.list(tenantId)) {
      const tools = binding.tools.filter((t) => !names.has(t.name));
      if (tools.length !== binding.tools.length)
        await this.bindings.replace(tenantId, binding.agentType, { version: binding.version, tools }, actor);
    }
  }

  /** Lists the server's tools again: changed definitions are quarantined until reviewed (UpstreamPinning). */
  async refresh(tenantId: string, name: string, actor: AuditActor) {
    const server = await this.lookup.server(tenantId, name);
    return await this.pinning.refresh(server, actor);
  }
}
