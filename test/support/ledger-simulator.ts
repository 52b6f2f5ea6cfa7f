import {
  LoopbackSimulator,
  type SimulatorRequest,
  type SimulatorResponse,
  type SimulatorStats,
} from '@toolgate/tool-packs/testing';

/** What the ledger simulator counts. */
export interface LedgerStats extends SimulatorStats {
  /** Requests per Idempotency-Key, counted on arrival (an abandoned request counts too). */
  byKey: Record<string, number>;
  /** Entries actually written: one per key, whatever the number of requests. */
  written: { key: string; kind: string; entry: string; seq: number }[];
}

/**
 * The upstream of the ledger test tools (test/support/ledger-tools.ts), on a real loopback socket:
 * `POST /entries` and `POST /transfers` with an `idempotency-key` header and `{entry, slowMs?}`.
 * A key seen before is answered with the first write (`replayed: true`), never written twice. The
 * first request of a key with `slowMs` is held that long before it writes, so a test can kill the
 * gateway waiting on it; a client that goes away meanwhile leaves nothing written.
 */
export class LedgerSimulator extends LoopbackSimulator<LedgerStats> {
  readonly stats: LedgerStats = { requests: 0, unauthorized: 0, abandoned: 0, byKey: {}, written: [] };

  /** Requests that arrived with `key`. */
  requestsWith(key: string): number {
    return this.stats.byKey[key] ?? 0;
  }

  protected async handle(req: SimulatorRequest): Promise<SimulatorResponse> {
    const [kind, ...rest] = req.segments;
    if (req.method !== 'POST' || rest.length || (kind !== 'entries' && kind !== 'transfers'))
      return { status: 404, body: { error: 'NO_ROUTE' } };
    const key = req.headers['idempotency-key'];
    if (typeof key !== 'string' || !key) return { status: 400, body: { error: 'IDEMPOTENCY_KEY_REQUIRED' } };
    const body = (req.body ?? {}) as { entry?: unknown; slowMs?: unknown };
    if (typeof body.entry !== 'string') return { status: 400, body: { error: 'BAD_REQUEST' } };
    const seen = this.stats.byKey[key] ?? 0;
    this.stats.byKey[key] = seen + 1;
    const known = this.stats.written.find((w) => w.key === key);
    if (known) return { status: 200, body: { entry: known.entry, seq: known.seq, replayed: true } };
    if (!seen && typeof body.slowMs === 'number' && body.slowMs > 0)
      await this.delay(body.slowMs, req.signal);
    const again = this.stats.written.find((w) => w.key === key); // a retry may have written it meanwhile
    if (again) return { status: 200, body: { entry: again.entry, seq: again.seq, replayed: true } };
    const written = { key, kind, entry: body.entry, seq: this.stats.written.length + 1 };
    this.stats.written.push(written);
    return { status: 200, body: { entry: written.entry, seq: written.seq, replayed: false } };
  }
}
