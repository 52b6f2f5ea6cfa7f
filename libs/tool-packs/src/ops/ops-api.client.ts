import { JsonHttpClient } from '../common/json-http-client.js';
import type { OpsApiConfig } from './ops-api.connector.js';
import { OPS_API_CONNECTOR } from './ops.constants.js';

/** `GET /services/:name`, as the ops API spells it. */
export interface ServiceDto {
  readonly name: string;
  readonly status: string;
  readonly instances: number;
  readonly updated_at: string;
}

/** `GET /logs/search`: the newest matching lines first, at most `limit`. */
export interface LogSearchDto {
  readonly service: string;
  readonly lines: readonly string[];
  /** Matching lines in the window, returned or not. */
  readonly total: number;
}

/** `POST /services/:name/restart`. */
export interface RestartDto {
  readonly service: string;
  readonly restart_id: string;
  readonly at: string;
  readonly status: string;
}

/** A log query as the ops API takes it. */
export interface LogQuery {
  readonly service: string;
  readonly window: string;
  readonly level: string;
  readonly limit: number;
}

/** The body of a restart request; goes to the change log. */
export interface RestartRequest {
  readonly reason: string;
  /** The principal who asked, or null for calls without one (scheduled, anonymous). */
  readonly requestedBy: string | null;
}

/**
 * One tenant's client of the ops API. Thin on purpose: tools own the mapping to their contracts,
 * the client owns transport and authentication.
 */
export class OpsApiClient {
  private readonly http: JsonHttpClient;

  constructor(config: OpsApiConfig) {
    this.http = new JsonHttpClient({
      name: OPS_API_CONNECTOR,
      baseUrl: config.baseUrl,
      headers: { authorization: `Bearer ${config.token}` },
    });
  }

  /** The current health of one service. */
  getService(service: string, signal?: AbortSignal): Promise<ServiceDto> {
    return this.http.get<ServiceDto>(`/services/${encodeURIComponent(service)}`, { signal });
  }

  /** Recent log lines of one service, newest first. */
  searchLogs(query: LogQuery, signal?: AbortSignal): Promise<LogSearchDto> {
    return this.http.get<LogSearchDto>('/logs/search', { query: { ...query }, signal });
  }

  /**
   * Starts a rolling restart. The upstream deduplicates on `idempotencyKey`: sending the same key
   * again answers the first restart instead of starting another.
   */
  restart(
    service: string,
    request: RestartRequest,
    idempotencyKey: string,
    signal?: AbortSignal,
  ): Promise<RestartDto> {
    return this.http.post<RestartDto>(`/services/${encodeURIComponent(service)}/restart`, request, {
      headers: { 'idempotency-key': idempotencyKey },
      signal,
    });
  }
}
