import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Roles, type Principal } from '@toolgate/auth';
import { ok } from '@toolgate/toolkit';
import { apiKeyViewSchema, createdKeySchema, createKeyBody, type CreateKeyBody } from '@toolgate/contract';
import { KeysAdminService } from './keys.service.js';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';

/** CONTRACT.md "Admin" keys: create (secret shown once), list (never the secret), revoke. */
@ApiTags('admin')
@ApiBearerAuth()
@Roles('platform_admin', 'tenant_admin')
@Controller('v1/admin/keys')
export class KeysController {
  constructor(private readonly keys: KeysAdminService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an API key; the answer holds the secret, shown this once' })
  @ApiEnvelope(createdKeySchema, { status: 201, errors: ['NOT_FOUND'] })
  async create(@CurrentPrincipal() actor: Principal, @Body({ schema: createKeyBody }) body: CreateKeyBody) {
    return ok(await this.keys.create(actor, body));
  }

  @Get()
  @ApiOperation({ summary: 'List keys (never the secret)' })
  @ApiEnvelope([apiKeyViewSchema])
  async list(@CurrentPrincipal() actor: Principal) {
    return ok(await this.keys.list(actor));
  }

  @Delete(':keyId')
  @ApiOperation({ summary: 'Revoke a key' })
  @ApiEnvelope(apiKeyViewSchema, { errors: ['NOT_FOUND'] })
  async revoke(@CurrentPrincipal() actor: Principal, @Param('keyId') keyId: string) {
    return ok(await this.keys.revoke(actor, keyId));
  }
}
