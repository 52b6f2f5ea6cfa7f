import { Controller, Get, Header } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCsrfToken, CurrentPrincipal, SeparatedDuties, type Principal } from '@toolgate/auth';
import { principalViewSchema, type PrincipalView } from '@toolgate/contract';
import { ok } from '@toolgate/toolkit';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';

/**
 * Who is calling: a key, or a person signed in through the identity provider. What the console
 * needs to show only what the role allows, and, for a browser session, the CSRF token to send.
 */
@ApiTags('auth')
@ApiBearerAuth()
@Controller('v1/me')
export class MeController {
  constructor(private readonly duties: SeparatedDuties) {}

  @Get()
  // A session's CSRF token must not sit in a shared or browser cache.
  @Header('cache-control', 'no-store')
  @ApiOperation({
    operationId: 'getMe',
    summary: 'Who is calling',
    description:
      'The principal behind the key or the console session: id, type, name, role, tenant and agent types; a browser session also gets the CSRF token its changes must send.',
  })
  @ApiEnvelope(principalViewSchema)
  me(@CurrentPrincipal() p: Principal, @CurrentCsrfToken() csrfToken: string | undefined) {
    return ok({
      principalId: p.principalId,
      principalType: p.principalType,
      name: p.name,
      role: p.role,
      tenantId: p.tenantId,
      agentTypes: p.agentTypes,
      ...(p.email ? { email: p.email } : {}),
      // Only under the profile: the console shows each administrator its own powers (ADR 039).
      ...(this.duties.on ? { separatedDuties: true } : {}),
      ...(csrfToken ? { csrfToken } : {}),
    } satisfies PrincipalView);
  }
}
