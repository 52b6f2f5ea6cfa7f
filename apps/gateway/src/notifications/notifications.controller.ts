import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Roles, type Principal } from '@toolgate/auth';
import { NotificationAdmin } from '@toolgate/notifications';
import { ok } from '@toolgate/toolkit';
import { z } from 'zod';
import { tenantInScope } from '../admin/admin-scope.js';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';

const deliveriesQuery = z.strictObject({
  status: z
    .string()
    .regex(/^[a-z,]{1,64}$/)
    .transform((v) => v.split(','))
    .pipe(z.array(z.enum(['pending', 'sending', 'delivered', 'dead', 'skipped'])))
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
type DeliveriesQuery = z.infer<typeof deliveriesQuery>;

/**
 * A tenant's approval notifications (issue 13 §2): its channels and routes as its file sets them
 * (secrets as variable names only), the delivery log, and the retry of dead letters.
 */
@ApiTags('admin')
@ApiBearerAuth()
@Roles('platform_admin', 'tenant_admin')
@Controller('v1/admin/tenants/:tenantId/notifications')
export class NotificationsController {
  constructor(private readonly notifications: NotificationAdmin) {}

  @Get()
  @ApiOperation({ summary: "The tenant's notification channels, routes, reminders and Feishu deciders" })
  @ApiEnvelope('any', { errors: ['NOT_FOUND'] })
  async settings(@CurrentPrincipal() actor: Principal, @Param('tenantId') tenantId: string) {
    return ok(await this.notifications.settingsOf(tenantInScope(actor, tenantId)));
  }

  @Get('deliveries')
  @ApiOperation({
    summary: 'Deliveries newest first with every attempt; `status=dead` lists the dead letters',
  })
  @ApiEnvelope('any', { errors: ['NOT_FOUND'] })
  async deliveries(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Query({ schema: deliveriesQuery }) q: DeliveriesQuery,
  ) {
    return ok(await this.notifications.deliveriesOf(tenantInScope(actor, tenantId), q.status, q.limit));
  }

  @Post('deliveries/:deliveryId/retry')
  @HttpCode(200)
  @ApiOperation({ summary: 'Puts a dead letter back in line for a fresh round of attempts' })
  @ApiEnvelope(null, { errors: ['NOT_FOUND'] })
  async retry(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Param('deliveryId') deliveryId: string,
  ) {
    await this.notifications.retry(tenantInScope(actor, tenantId), deliveryId);
    return ok(null);
  }
}
