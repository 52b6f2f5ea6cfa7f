import { Injectable } from '@nestjs/common';
import { CallQuotas, KeyConcurrency } from '@toolgate/quotas';
import type { Locale } from '@toolgate/toolkit';
import { RunRepository } from './store/run.repository.js';

/** Who starts a run: its tenant and key. */
interface Starter {
  readonly tenantId: string;
  readonly principalId: string;
}

/**
 * What a run start must pass before the run is stored, beside the tenant's token budget: the
 * key's runs in flight (`quotas.runsInFlightPerKey`, counted in the database, so on every gateway
 * together) and the tenant's call quotas (a start counts as one call of the key, face `run`, for
 * quotas of all tools). Over either: 429 RATE_LIMITED with `Retry-After`, and nothing is stored.
 * The starts of one key go through one at a time on a gateway, so a burst cannot pass the count
 * together; gateways racing each other may each let one more through.
 */
@Injectable()
export class RunAdmission {
  /** The tail of each key's queue of starts on this gateway. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly runs: RunRepository,
    private readonly quotas: CallQuotas,
    private readonly caps: KeyConcurrency,
  ) {}

  /** Admits the start, then stores the run with `open` (before the next start of the key is admitted). */
  admit<T>(starter: Starter, locale: Locale, open: () => Promise<T>): Promise<T> {
    return this.oneAtATime(`${starter.tenantId}\u0000${starter.principalId}`, async () => {
      this.caps.assertBelow(
        'runsInFlightPerKey',
        await this.runs.inFlight(starter.tenantId, starter.principalId),
      );
      await this.quotas.assertRoom({
        tenantId: starter.tenantId,
        principalId: starter.principalId,
        tool: null,
        face: 'run',
        locale,
      });
      return open();
    });
  }

  private oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
    const turn = (this.queues.get(key) ?? Promise.resolve()).then(work);
    const tail = turn.catch(() => undefined);
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return turn;
  }
}
