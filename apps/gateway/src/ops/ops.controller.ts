import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from '@toolgate/auth';
import { ErrorCode, ok, ToolgateError } from '@toolgate/toolkit';
import { MetricsAccessGuard } from './metrics-access.guard.js';
import { MetricsRegistry } from './metrics.registry.js';
import { healthSchema } from '@toolgate/contract';
import { ApiEnvelope } from '../openapi/api-envelope.decorator.js';

/** Liveness and readiness (no key needed), and Prometheus metrics (the metrics token or a platform admin). */
@ApiTags('ops')
@Public()
@Controller()
export class OpsController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly metrics: MetricsRegistry,
  ) {}

  @Get('healthz')
  @ApiOperation({
    operationId: 'getLiveness',
    summary: 'Liveness',
    description: 'Answers 200 once the gateway serves. No key needed.',
    security: [],
  })
  @ApiEnvelope(healthSchema, { public: true })
  healthz() {
    return ok({ status: 'up' });
  }

  @Get('readyz')
  @ApiOperation({
    operationId: 'getReadiness',
    summary: 'Readiness',
    description: 'Answers 200 when the database answers, 503 NOT_READY otherwise. No key needed.',
    security: [],
  })
  @ApiEnvelope(healthSchema, { public: true })
  async readyz() {
    try {
      const result = await this.health.check([() => this.db.pingCheck('database', { timeout: 1500 })]);
      return ok({ status: 'ready', checks: result.details });
    } catch {
      throw new ToolgateError(ErrorCode.NOT_READY, { params: { reason: 'the database does not answer' } });
    }
  }

  @Get('metrics')
  @UseGuards(MetricsAccessGuard)
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiBearerAuth()
  @ApiOperation({
    operationId: 'getMetrics',
    summary: 'Prometheus metrics',
    description:
      'Calls by tool, code and face, their latency, and the process’s own metrics, as Prometheus text. Needs the metrics token (`TOOLGATE_METRICS_TOKEN`) or a platform admin key.',
  })
  @ApiEnvelope(null, { text: ['text/plain'] })
  metricsText(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
