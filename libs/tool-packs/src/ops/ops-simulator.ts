import { sameSecret } from '../common/credentials.js';
import {
  errorAnswer,
  LoopbackSimulator,
  type SimulatorRequest,
  type SimulatorResponse,
  type SimulatorStats,
} from '../common/loopback-simulator.js';
import {
  countLogLines,
  findDemoService,
  generateLogLines,
  isKnownLogQuery,
  type DemoService,
} from './ops-demo-data.js';
import { DEMO_OPS_TOKEN, LEGACY_BATCH_DELAY_MS } from './ops.constants.js';

/** The upstream never returns more lines than this per search. */
const MAX_UPSTREAM_LOG_LIMIT = 500;

/** Settings of an ops simulator. */
export interface OpsSimulatorOptions {
  /** The bearer token it accepts. Default DEMO_OPS_TOKEN. */
  readonly token?: string;
  /** How long requests about `legacy-batch` wait. Default 15 s; tests use a few hundred ms. */
  readonly slowDelayMs?: number;
}

/** One restart the simulator performed. */
export interface RestartRecord {
  readonly restartId: string;
  readonly service: string;
  readonly idempotencyKey: string;
  readonly reason: string;
  readonly requestedBy: string | null;
  readonly at: string;
}

/** What the ops simulator counts. */
export interface OpsSimulatorStats extends SimulatorStats {
  /** Restarts actually performed (replays of a known idempotency key excluded). */
  restarts: number;
  /** Every distinct idempotency key received, in order. */
  idempotencyKeys: string[];
  /** The restarts, in order. */
  restartLog: RestartRecord[];
}

/**
 * The demo ops API: `GET /services/:name`, `GET /logs/search?service&window&level&limit`,
 * `POST /services/:name/restart` (needs an `idempotency-key` header; the same key answers the same
 * restart without restarting again). Every request needs `Authorization: Bearer <token>`.
 * Services: payment-api (healthy, 3), search-api (degraded, 2, 120 errors/h), legacy-batch
 * (healthy, 1, answers only after `slowDelayMs`).
 * @example
 * const ops = new OpsSimulator({ slowDelayMs: 300 });
 * const baseUrl = await ops.start(); ...; await ops.close();
 */
export class OpsSimulator extends LoopbackSimulator<OpsSimulatorStats> {
  readonly stats: OpsSimulatorStats = {
    requests: 0,
    unauthorized: 0,
    abandoned: 0,
    restarts: 0,
    idempotencyKeys: [],
    restartLog: [],
  };
  private readonly token: string;
  private readonly slowDelayMs: number;
  private readonly restartsByKey = new Map<string, RestartRecord>();

  constructor(options: OpsSimulatorOptions = {}) {
    super();
    this.token = options.token ?? DEMO_OPS_TOKEN;
    this.slowDelayMs = options.slowDelayMs ?? LEGACY_BATCH_DELAY_MS;
  }

  protected async handle(req: SimulatorRequest): Promise<SimulatorResponse> {
    const auth = req.headers.authorization;
    if (!auth?.startsWith('Bearer ') || !sameSecret(auth.slice('Bearer '.length), this.token)) {
      this.stats.unauthorized++;
      return errorAnswer(401, 'UNAUTHORIZED', 'missing or invalid bearer token');
    }
    const route = matchRoute(req);
    if (!route) return errorAnswer(404, 'NO_ROUTE', `no route ${req.method} /${req.segments.join('/')}`);
    if (!route.service) return errorAnswer(400, 'BAD_REQUEST', 'service is required');
    const service = findDemoService(route.service);
    if (!service) return errorAnswer(404, 'SERVICE_NOT_FOUND', `service "${route.service}" does not exist`);
    if (service.slow) await this.delay(this.slowDelayMs, req.signal);
    switch (route.kind) {
      case 'status':
        return this.status(route.service, service);
      case 'logs':
        return this.searchLogs(route.service, service, req);
      case 'restart':
        return this.restart(route.service, req);
    }
  }

  private status(name: string, service: DemoService): SimulatorResponse {
    return {
      status: 200,
      body: { name, status: service.status, instances: service.instances, updated_at: service.updatedAt },
    };
  }

  private searchLogs(name: string, service: DemoService, req: SimulatorRequest): SimulatorResponse {
    const window = req.query.get('window') ?? '1h';
    const level = req.query.get('level') ?? 'error';
    const limit = Number(req.query.get('limit') ?? '50');
    if (!isKnownLogQuery(window, level))
      return errorAnswer(400, 'BAD_REQUEST', 'window must be 5m|1h|24h and level error|warn|all');
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_UPSTREAM_LOG_LIMIT) {
      return errorAnswer(400, 'BAD_REQUEST', `limit must be an integer from 1 to ${MAX_UPSTREAM_LOG_LIMIT}`);
    }
    const lines = generateLogLines(name, service, window, level, limit);
    return {
      status: 200,
      body: { service: name, window, level, lines, total: countLogLines(service, window, level) },
    };
  }

  private restart(service: string, req: SimulatorRequest): SimulatorResponse {
    const key = req.headers['idempotency-key'];
    if (typeof key !== 'string' || !key)
      return errorAnswer(400, 'IDEMPOTENCY_KEY_REQUIRED', 'send an idempotency-key header');
    const body = (req.body ?? {}) as { reason?: unknown; requestedBy?: unknown };
    if (typeof body.reason !== 'string' || !body.reason.trim())
      return errorAnswer(400, 'BAD_REQUEST', 'reason is required');
    if (!this.restartsByKey.has(key)) this.stats.idempotencyKeys.push(key);
    const known = this.restartsByKey.get(key);
    if (known) {
      if (known.service !== service)
        return errorAnswer(409, 'IDEMPOTENCY_KEY_REUSED', 'this key was used for another service');
      return this.restartAnswer(known, true);
    }
    const record: RestartRecord = {
      restartId: `rst-${String(this.stats.restarts + 1).padStart(4, '0')}`,
      service,
      idempotencyKey: key,
      reason: body.reason,
      requestedBy: typeof body.requestedBy === 'string' ? body.requestedBy : null,
      at: new Date().toISOString(),
    };
    this.restartsByKey.set(key, record);
    this.stats.restarts++;
    this.stats.restartLog.push(record);
    return this.restartAnswer(record, false);
  }

  private restartAnswer(record: RestartRecord, replayed: boolean): SimulatorResponse {
    return {
      status: 202,
      headers: replayed ? { 'idempotent-replayed': 'true' } : {},
      body: { service: record.service, restart_id: record.restartId, at: record.at, status: 'restarting' },
    };
  }
}

type Route = { kind: 'status' | 'logs' | 'restart'; service: string };

function matchRoute(req: SimulatorRequest): Route | null {
  const [first, second, third, ...rest] = req.segments;
  if (rest.length) return null;
  if (req.method === 'GET' && first === 'services' && second && third === undefined)
    return { kind: 'status', service: second };
  if (req.method === 'POST' && first === 'services' && second && third === 'restart')
    return { kind: 'restart', service: second };
  if (req.method === 'GET' && first === 'logs' && second === 'search' && third === undefined) {
    return { kind: 'logs', service: req.query.get('service') ?? '' };
  }
  return null;
}
