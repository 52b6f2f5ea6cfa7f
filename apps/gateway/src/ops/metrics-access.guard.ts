import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ApiKeyService } from '@toolgate/auth';
import { timingSafeEqual } from 'node:crypto';
import { OPS_OPTIONS, type OpsOptions } from './ops.options.js';

/**
 * Who may read `/metrics`: a scraper with the metrics token (`Authorization: Bearer
 * <TOOLGATE_METRICS_TOKEN>`, compared in constant time) or a platform admin's key. Anyone else gets
 * 401/403: the exposition names the platform's tools, error codes and load.
 */
@Injectable()
export class MetricsAccessGuard implements CanActivate {
  private readonly expected?: Buffer;

  constructor(
    private readonly keys: ApiKeyService,
    @Inject(OPS_OPTIONS) options: OpsOptions,
  ) {
    this.expected = options.metricsToken ? Buffer.from(`Bearer ${options.metricsToken}`) : undefined;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { authorization } = context
      .switchToHttp()
      .getRequest<{ headers: Record<string, string | undefined> }>().headers;
    if (this.expected && authorization !== undefined) {
      const given = Buffer.from(authorization);
      if (given.length === this.expected.length && timingSafeEqual(given, this.expected)) return true;
    }
    await this.keys.authorize(authorization, ['platform_admin']);
    return true;
  }
}
