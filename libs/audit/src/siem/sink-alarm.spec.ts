import { describe, expect, it } from 'vitest';
import { AuditAlarms, type AuditAlarm } from '../alarms/audit-alarms.js';
import { draftEvent, type AuditEventRecord } from '../audit-fields.js';
import { DEFAULT_SIEM_OPTIONS, DEFAULT_SINK_OPTIONS, type SinkOptions } from './siem.options.js';
import { SinkRunner } from './sink-runner.js';
import type { SinkStateRepository } from './sink-state.repository.js';
import type { SendOutcome, SinkTransport } from './transports/sink-transport.js';

const SINK: SinkOptions = {
  kind: 'https',
  name: 'soc',
  url: 'https://siem.example/ingest',
  format: 'jsonl',
  batchSize: DEFAULT_SINK_OPTIONS.batchSize,
  maxRecordBytes: DEFAULT_SINK_OPTIONS.maxRecordBytes,
  timeoutMs: DEFAULT_SINK_OPTIONS.timeoutMs,
};

const event = (seq: number): AuditEventRecord =>
  ({
    ...draftEvent({
      tenantId: 'acme',
      event: 'finished',
      actor: { type: 'api_key', id: 'k' },
      occurredAt: new Date('2026-01-02T03:04:05.678Z'),
      tool: 'noop',
      status: 'ok',
    }),
    id: String(seq),
    seq,
    prevHash: 'a'.repeat(64),
    hash: 'b'.repeat(64),
  }) as AuditEventRecord;

/** A runner over one tenant with one event, whose receiver answers `outcomes` in turn; no backoff. */
function runner(outcomes: SendOutcome[], alarmAfterFailures: number) {
  const heard: string[] = [];
  let sent = 0;
  const state = {
    lease: async () => true,
    behind: async () => (sent < 1 ? [{ tenantId: 'acme', sent, head: 1 }] : []),
    advance: async (_s: string, _t: string, _from: number, to: number) => {
      sent = to;
      return true;
    },
  } as unknown as SinkStateRepository;
  const transport: SinkTransport = { send: async () => outcomes.shift()!, close: async () => undefined };
  const r = new SinkRunner(
    SINK,
    transport,
    state,
    async () => (sent < 1 ? [event(1)] : []),
    { ...DEFAULT_SIEM_OPTIONS, retryBaseMs: 0, retryMaxMs: 0, alarmAfterFailures },
    'gw-1',
    Math.random,
    (_sink, reason) => heard.push(reason),
  );
  return { r, heard, reset: () => (sent = 0) };
}

const down: SendOutcome = { kind: 'failed', answered: false, reason: 'connect ECONNREFUSED' };

describe('SinkRunner alarm', () => {
  it('raises siem_sink_failing once after alarmAfterFailures failures in a row, again only after a delivery', async () => {
    const { r, heard, reset } = runner(
      [down, down, down, down, down, { kind: 'delivered' }, down, down, down],
      3,
    );
    for (let i = 0; i < 2; i++) await r.pass(new Date(Date.now() + 1_000));
    expect(heard).toEqual([]);
    await r.pass(new Date(Date.now() + 1_000));
    expect(heard).toEqual(['SIEM sink soc: 3 attempts failed in a row (last: connect ECONNREFUSED)']);
    // Still failing: the same incident, no second alarm.
    for (let i = 0; i < 2; i++) await r.pass(new Date(Date.now() + 1_000));
    expect(heard).toHaveLength(1);
    await r.pass(new Date(Date.now() + 1_000));
    expect(r.counters.sent).toBe(1);
    // A new incident after a delivery: a new alarm.
    reset();
    for (let i = 0; i < 3; i++) await r.pass(new Date(Date.now() + 1_000));
    expect(heard).toHaveLength(2);
  });

  it('never raises with alarmAfterFailures 0', async () => {
    const { r, heard } = runner([down, down, down, down], 0);
    for (let i = 0; i < 4; i++) await r.pass(new Date(Date.now() + 1_000));
    expect(r.counters.failures).toBe(4);
    expect(heard).toEqual([]);
  });
});

describe('AuditAlarms', () => {
  it('hands the alarms raised before anyone listened to the first listener (a sink failing during boot)', () => {
    const alarms = new AuditAlarms();
    alarms.raise('siem_sink_failing', 'SIEM sink soc: 5 attempts failed in a row');
    const first: AuditAlarm[] = [];
    const second: AuditAlarm[] = [];
    alarms.subscribe((a) => first.push(a));
    alarms.subscribe((a) => second.push(a));
    expect(first.map((a) => a.kind)).toEqual(['siem_sink_failing']);
    expect(second).toEqual([]);
    alarms.raise('audit_write_failed', 'no confirmation');
    expect(first.map((a) => a.kind)).toEqual(['siem_sink_failing', 'audit_write_failed']);
    expect(second.map((a) => a.kind)).toEqual(['audit_write_failed']);
  });
});
