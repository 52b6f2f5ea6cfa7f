import { Controller, Headers, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import { Public } from '@toolgate/auth';
import { FeishuDecisions } from '@toolgate/notifications';
import { TENANT_ID } from '@toolgate/tenancy';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import type { FastifyRequest } from 'fastify';
import { rawBodyOf } from '../http/json-body-parser.js';

/**
 * Feishu's card callback (`card.action.trigger`): an approver clicked approve or deny on a card.
 * Public: Feishu sends no API key; the tenant's Encrypt Key signature, the timestamp window, the
 * Verification Token and a replay check stand in for it (FeishuDecisions). Answers Feishu's own
 * JSON (a toast and the updated card), not an envelope; refusals are error envelopes.
 */
@Controller('v1/integrations/feishu')
export class FeishuCallbackController {
  constructor(private readonly feishu: FeishuDecisions) {}

  @Public()
  @Post(':tenantId/card')
  @HttpCode(200)
  @ApiExcludeEndpoint()
  async card(
    @Param('tenantId') tenantId: string,
    @Req() req: FastifyRequest,
    @Headers('x-lark-request-timestamp') timestamp?: string,
    @Headers('x-lark-request-nonce') nonce?: string,
    @Headers('x-lark-signature') signature?: string,
  ) {
    if (!TENANT_ID.safeParse(tenantId).success)
      throw new ToolgateError(ErrorCode.NOT_FOUND, {
        params: { resource: `tenant ${tenantId.slice(0, 64)}` },
      });
    return this.feishu.handle(tenantId, { timestamp, nonce, signature }, rawBodyOf(req));
  }
}
