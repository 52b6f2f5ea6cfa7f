import { Injectable } from '@nestjs/common';
import { ApiKeyService, type ApiKeyView, type CreatedKey, type Principal } from '@toolgate/auth';
import { TenantRepository } from '@toolgate/tenancy';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import type { CreateKeyBody } from '@toolgate/contract';

/** Key administration: the auth lib's rules plus the check that the tenant exists. */
@Injectable()
export class KeysAdminService {
  constructor(
    private readonly keys: ApiKeyService,
    private readonly tenants: TenantRepository,
  ) {}

  async create(actor: Principal, body: CreateKeyBody): Promise<CreatedKey> {
    // A tenant admin's keys belong to its tenant unless it says otherwise (and then the auth rules refuse).
    const tenantId = body.tenantId ?? (actor.role === 'tenant_admin' ? actor.tenantId : undefined) ?? null;
    if (tenantId && !(await this.tenants.findTenant(tenantId))) {
      throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `tenant ${tenantId}` } });
    }
    return this.keys.create(actor, { ...body, tenantId });
  }

  list(actor: Principal): Promise<ApiKeyView[]> {
    return this.keys.list(actor);
  }

  changeOwner(actor: Principal, keyId: string, owner: string | null): Promise<ApiKeyView> {
    return this.keys.changeOwner(actor, keyId, owner);
  }

  revoke(actor: Principal, keyId: string): Promise<ApiKeyView> {
    return this.keys.revoke(actor, keyId);
  }
}
