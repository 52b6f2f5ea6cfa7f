import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminPower, CurrentPrincipal, type Principal } from '@toolgate/auth';
import { DELIVERY_STATUSES, NotificationAdmin } from '@toolgate/notifications';
import { ok } from '@toolgate/toolkit';
import { z } from 'zod';
import { tenantInScope } from '../admin/admin-scope.js';
import { AdminActs } from '../http/admin-acts.js';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';

/** A comma-separated list of delivery statuses, as a pattern (unambiguous, so a match is linear). */
const STATUS = `(?:${DELIVERY_STATUSES.join('|')})`;
const STATUS_LIST = `^${STATUS}(?:,${STATUS})*$`;

const deliveriesQuery = z.strictObject({
  // The document states the values as a pattern a client can check; parsed as a list, a wrong value
  // is named with the ones allowed.
  status: z
    .string()
    .regex(/^[a-z,]{1,64}$/)
    .meta({ pattern: STATUS_LIST })
    .transform((v) => v.split(','))
    .pipe(z.array(z.enum(DELIVERY_STATUSES)))
    .optional()
    .describe(`Comma-separated delivery statuses: ${DELIVERY_STATUSES.join(', ')}`),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
type DeliveriesQuery = z.infer<typeof deliveriesQuery>;

/**
 * A tenant's approval notifications (issue 13 §2): its channels and routes as its file sets them
 * (secrets as variable names only), the delivery log, and the retry of dead letters.
 */
@ApiTags('admin')
@ApiBearerAuth()
@AdminPower('notifications')
@Controller('v1/admin/tenants/:tenantId/notifications')
export class NotificationsController {
  constructor(
    private readonly notifications: NotificationAdmin,
    private readonly acts: AdminActs,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'getNotificationSettings',
    summary: "The tenant's approval notifications",
    description:
      'Its channels, routes, reminders, escalation and Feishu deciders as its tenant file sets them; secrets only as the names of their variables and whether they are set.',
  })
  @ApiEnvelope('any', { errors: ['NOT_FOUND'] })
  async settings(@CurrentPrincipal() actor: Principal, @Param('tenantId') tenantId: string) {
    return ok(await this.notifications.settingsOf(tenantInScope(actor, tenantId)));
  }

  @Get('deliveries')
  @ApiOperation({
    operationId: 'listNotificationDeliveries',
    summary: 'Notification deliveries, newest first',
    description:
      'Each delivery with every attempt; `status` filters by a comma-separated list of statuses (`status=dead` lists the dead letters).',
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
  @ApiOperation({
    operationId: 'retryNotificationDelivery',
    summary: 'Retry a dead letter',
    description:
      'Puts one of the tenant’s dead letters back in line for a fresh round of attempts (404 otherwise).',
  })
  @ApiEnvelope(null, { errors: ['NOT_FOUND'] })
  async retry(
    @CurrentPrincipal() actor: Principal,
    @Param('tenantId') tenantId: string,
    @Param('deliveryId') deliveryId: string,
  ) {
    const tenant = tenantInScope(actor, tenantId);
    await this.notifications.retry(tenant, deliveryId);
    await this.acts.notificationRetried(actor, tenant, deliveryId);
    return ok(null);
  }
}
