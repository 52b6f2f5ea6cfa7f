import { openEventStream } from '../http/sse.js';
import type { RunEvent } from '@toolgate/contract';
import type { RunEvents } from '@toolgate/runs';
import { toRunEvent } from '@toolgate/runs';
import type { FastifyReply } from 'fastify';

/** How often a quiet stream reads the table (events written by another gateway) and says it is alive. */
const POLL_MS = 1_000;
const KEEP_ALIVE_MS = 15_000;

/** The `Last-Event-ID` a client resumes after (0: from the start). */
export function lastEventIdOf(header: unknown): number {
  const n = Number(typeof header === 'string' ? header : NaN);
  return Number.isInteger(n) && n > 0 ? n : 0;
}

/**
 * Streams a run's events as Server-Sent Events: the stored ones after `afterSeq` first (a
 * reconnecting client replays what it missed), then new ones as they are written — woken at once
 * by this gateway's writes, reading the table every second for another gateway's. Ends after
 * `run_finished`, or once `parked()` says the run waits for a person and every stored event is
 * out (the run request's stream: a parked run holds nothing, its client comes back with
 * `GET /v1/runs/:runId/events`). A client that disconnects stops the stream, never the run.
 * `present` is how the reader gets each event: as stored, redacted, or not at all (null).
 */
export async function streamRunEvents(
  reply: FastifyReply,
  events: RunEvents,
  ref: { tenantId: string; runId: string },
  afterSeq: number,
  parked: () => boolean = () => false,
  present: (event: RunEvent) => RunEvent | null = (event) => event,
): Promise<void> {
  const raw = openEventStream(reply);
  const gone = new AbortController();
  raw.on('close', () => gone.abort());
  const keepAlive = setInterval(() => raw.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  keepAlive.unref();
  let seq = afterSeq;
  try {
    while (!gone.signal.aborted) {
      const stopWhenDrained = parked();
      const rows = await events.after(ref, seq);
      for (const row of rows) {
        seq = row.seq;
        const event = present(toRunEvent(row));
        if (event) raw.write(`id: ${row.seq}\nevent: ${row.type}\ndata: ${JSON.stringify(event)}\n\n`);
        if (row.type === 'run_finished') return;
      }
      if (stopWhenDrained && !rows.length) return;
      if (!rows.length) await events.wait(ref.runId, POLL_MS, gone.signal);
    }
  } finally {
    clearInterval(keepAlive);
    if (!raw.writableEnded) raw.end();
  }
}
