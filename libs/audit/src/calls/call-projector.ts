import {
  Injectable,
  Logger,
  Optional,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { runPeriodically } from '@toolgate/database';
import { ToolRegistry } from '@toolgate/toolkit';
import type { AuditEventRecord } from '../audit-fields.js';
import { AuditCallsRepository, StaleProjectionError } from './audit-calls.repository.js';
import {
  foldCallEvent,
  isCallEvent,
  principalsOf,
  targetOf,
  termsOf,
  type CallRow,
  type NamedPrincipal,
} from './call-fold.js';

/** How often the projector looks for chains that grew (ms); the lag of `GET /v1/audit/calls`. */
export const CALL_PROJECTION_INTERVAL_MS = 250;
/** Events read and projected per transaction. */
export const CALL_PROJECTION_BATCH = 500;

/**
 * Keeps `audit_calls` in step with the trail (ADR 033): it follows each tenant's chain by seq from
 * a durable cursor, folds the new events into their calls' rows and moves the cursor in the same
 * transaction. It runs beside the calls, never on their path: the chain's writers do not wait for
 * it, and a projection that falls behind or is dropped catches up from the chain. Several gateways
 * may run it at once: a batch whose cursor moved meanwhile is discarded whole.
 */
@Injectable()
export class CallProjector implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('CallProjector');
  private stop?: () => void;
  private running?: Promise<number>;

  constructor(
    private readonly repo: AuditCallsRepository,
    @Optional() private readonly tools?: ToolRegistry,
  ) {}

  onApplicationBootstrap(): void {
    this.stop = runPeriodically(
      CALL_PROJECTION_INTERVAL_MS,
      () => this.catchUp(),
      (err) => this.logger.warn(`call projection failed: ${err.message}`),
    );
  }

  onApplicationShutdown(): void {
    this.stop?.();
  }

  /**
   * Projects every event committed so far; answers how many it projected. Concurrent callers
   * share one pass (and a caller that arrives during a pass waits for the next one).
   */
  async catchUp(): Promise<number> {
    while (this.running) await this.running.catch(() => undefined);
    this.running = this.pass();
    try {
      return await this.running;
    } finally {
      this.running = undefined;
    }
  }

  /** Drops a tenant's projection (every tenant's when undefined) and rebuilds it from the chain. */
  async rebuild(tenantId?: string): Promise<number> {
    while (this.running) await this.running.catch(() => undefined);
    await this.repo.reset(tenantId);
    return this.catchUp();
  }

  private async pass(): Promise<number> {
    let projected = 0;
    for (const { tenantId, projected: from } of await this.repo.behind()) {
      let seq = from;
      for (;;) {
        let events: readonly AuditEventRecord[];
        try {
          events = await this.repo.projectNext(tenantId, seq, CALL_PROJECTION_BATCH, (e, stored) =>
            this.fold(e, stored),
          );
        } catch (err) {
          if (err instanceof StaleProjectionError) break; // another gateway is on it
          throw err;
        }
        if (!events.length) break;
        seq = events.at(-1)!.seq;
        projected += events.length;
        if (events.length < CALL_PROJECTION_BATCH) break;
      }
    }
    return projected;
  }

  private keyFieldsOf(tool: string | null): readonly string[] {
    return (tool && this.tools?.get(tool)?.keyFields) || [];
  }

  /** The rows, terms and names a batch of events changes, given the stored rows of its calls. */
  private fold(events: readonly AuditEventRecord[], stored: ReadonlyMap<string, CallRow>) {
    const rows = new Map<string, CallRow>();
    const principals: NamedPrincipal[] = [];
    for (const e of events) {
      principals.push(...principalsOf(e));
      if (!isCallEvent(e)) continue;
      const id = e.callId!;
      rows.set(id, foldCallEvent(rows.get(id) ?? stored.get(id), e));
    }
    const terms = new Map<string, string[]>();
    for (const row of rows.values()) {
      const keyFields = this.keyFieldsOf(row.tool);
      row.target = targetOf(row.input, keyFields);
      terms.set(row.callId, termsOf(row, keyFields));
    }
    return { rows: [...rows.values()], terms, principals };
  }
}
