import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';

/** This gateway's Prometheus registry (one per app, so tests can run several in one process). */
@Injectable()
export class MetricsRegistry {
  readonly registry = new Registry();

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'toolgate_' });
  }
}
