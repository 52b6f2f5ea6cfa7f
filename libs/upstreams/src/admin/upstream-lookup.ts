import { Injectable } from '@nestjs/common';
import { TenantRepository } from '@toolgate/tenancy';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import type { UpstreamServerEntity } from '../entities/upstream-server.entity.js';
import { UpstreamRepository } from '../upstream.repository.js';

/** Finds what an admin request names — its tenant, an upstream of it, one imported tool — or answers 404. */
@Injectable()
export class UpstreamLookup {
  constructor(
    private readonly repo: UpstreamRepository,
    private readonly tenants: TenantRepository,
  ) {}

  async tool(tenantId: string, name: string, tool: string) {
    const server = await this.server(tenantId, name);
    const row = (await this.repo.toolsOfServer(tenantId, server.id)).find(
      (r) => r.upstreamName === tool || r.toolgateName === tool,
    );
    if (!row)
      throw new ToolgateError(ErrorCode.NOT_FOUND, {
        params: { resource: `tool ${tool} of upstream ${name}` },
      });
    return { server, row };
  }

  async server(tenantId: string, name: string): Promise<UpstreamServerEntity> {
    await this.requireTenant(tenantId);
    const server = await this.repo.serverByName(tenantId, name);
    if (!server) throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `upstream ${name}` } });
    return server;
  }

  async requireTenant(tenantId: string): Promise<void> {
    if (!(await this.tenants.findTenant(tenantId)))
      throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `tenant ${tenantId}` } });
  }
}
