import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminPower, CurrentPrincipal, type Principal } from '@toolgate/auth';
import { ok } from '@toolgate/toolkit';
import {
  apiKeyViewSchema,
  changeKeyOwnerBody,
  createdKeySchema,
  createKeyBody,
  type ChangeKeyOwnerBody,
  type CreateKeyBody,
} from '@toolgate/contract';
import { KeysAdminService } from './keys.service.js';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';

/** CONTRACT.md "Admin" keys: create (secret shown once), list (never the secret), revoke. */
@ApiTags('admin')
@ApiBearerAuth()
@AdminPower('keys')
@Controller('v1/admin/keys')
export class KeysController {
  constructor(private readonly keys: KeysAdminService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createKey',
    summary: 'Create an API key',
    description:
      'The answer holds the secret (`key`), shown this once. `tenantId` is needed for tenant_admin, approver and agent keys (a tenant admin’s key is for its own tenant when it leaves it out); a platform_admin key has none. Tenant admins may not create platform keys.',
  })
  @ApiEnvelope(createdKeySchema, { status: 201, errors: ['NOT_FOUND'] })
  async create(@CurrentPrincipal() actor: Principal, @Body({ schema: createKeyBody }) body: CreateKeyBody) {
    return ok(await this.keys.create(actor, body));
  }

  @Get()
  @ApiOperation({
    operationId: 'listKeys',
    summary: 'List API keys',
    description: 'Every key the caller may see (a tenant admin: its tenant’s), never the secret.',
  })
  @ApiEnvelope([apiKeyViewSchema])
  async list(@CurrentPrincipal() actor: Principal) {
    return ok(await this.keys.list(actor));
  }

  @Patch(':keyId')
  @ApiOperation({
    operationId: 'changeKeyOwner',
    summary: 'Change who answers for an API key',
    description:
      'Sets `owner` (a person, `<provider>:<subject>`, or null) of a key that is not revoked; recorded as `key_owner_changed` with before and after. Under the dengbao3 profile an administrator’s key keeps an owner who holds no other administrator role (403 ROLES_CONFLICT).',
  })
  @ApiEnvelope(apiKeyViewSchema, { errors: ['NOT_FOUND'] })
  async changeOwner(
    @CurrentPrincipal() actor: Principal,
    @Param('keyId') keyId: string,
    @Body({ schema: changeKeyOwnerBody }) body: ChangeKeyOwnerBody,
  ) {
    return ok(await this.keys.changeOwner(actor, keyId, body.owner));
  }

  @Delete(':keyId')
  @ApiOperation({
    operationId: 'revokeKey',
    summary: 'Revoke an API key',
    description: 'The key stops working on every gateway; answers the key’s view with `revokedAt`.',
  })
  @ApiEnvelope(apiKeyViewSchema, { errors: ['NOT_FOUND'] })
  async revoke(@CurrentPrincipal() actor: Principal, @Param('keyId') keyId: string) {
    return ok(await this.keys.revoke(actor, keyId));
  }
}
