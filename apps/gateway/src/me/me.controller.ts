import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@toolgate/auth';
import { principalViewSchema, type PrincipalView } from '@toolgate/contract';
import { ok } from '@toolgate/toolkit';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';

/** Who the key belongs to: what the console needs to show a person only what its role allows. */
@ApiTags('auth')
@ApiBearerAuth()
@Controller('v1/me')
export class MeController {
  @Get()
  @ApiOperation({ summary: 'The principal behind the key: id, name, role, tenant, agent types' })
  @ApiEnvelope(principalViewSchema)
  me(@CurrentPrincipal() p: Principal) {
    return ok({
      principalId: p.principalId,
      name: p.name,
      role: p.role,
      tenantId: p.tenantId,
      agentTypes: p.agentTypes,
    } satisfies PrincipalView);
  }
}
