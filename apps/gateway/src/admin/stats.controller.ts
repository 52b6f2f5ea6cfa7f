import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminPower, CurrentPrincipal, type Principal } from '@toolgate/auth';
import { statsQuery, statsSchema, type StatsQuery } from '@toolgate/contract';
import { ok } from '@toolgate/toolkit';
import { adminScope } from './admin-scope.js';
import { StatsService } from './stats.service.js';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';

/** The console overview: audited calls, errors, p95 latency per tenant and tool over time. */
@ApiTags('admin')
@ApiBearerAuth()
@AdminPower('stats')
@Controller('v1/admin/stats')
export class StatsController {
  constructor(private readonly stats: StatsService) {}

  @Get()
  @ApiOperation({
    operationId: 'getStats',
    summary: 'Calls, errors and latency over time',
    description:
      'Calls, error rate and p95 latency per tenant, tool and time bucket (default: the last 6 h in 5-minute buckets), pending approvals, incomplete calls, and runs by agent type with the tokens of the current UTC day. A tenant admin or auditor sees its own tenant only.',
  })
  @ApiEnvelope(statsSchema)
  async get(@CurrentPrincipal() p: Principal, @Query({ schema: statsQuery }) q: StatsQuery) {
    const to = q.to ? new Date(q.to) : new Date();
    const from = q.from ? new Date(q.from) : new Date(to.getTime() - 6 * 60 * 60 * 1000);
    return ok(await this.stats.stats(adminScope(p), from, to, q.bucketMinutes));
  }
}
