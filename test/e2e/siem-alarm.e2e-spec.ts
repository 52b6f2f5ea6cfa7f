import { freePort, makeConfigDir, startTestGateway, waitFor, type TestGateway } from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotificationPeers } from './notification-peers.js';

/** The value of a counter series in the Prometheus text, 0 when absent. */
function counter(metrics: string, series: string): number {
  const line = metrics.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

/**
 * 等保 2.0 8.1.5.4 d) (ADR 047): central collection that stops is an audit alarm. A syslog sink
 * whose receiver is down (a loopback port nobody listens on) fails every attempt; after
 * `siem.alarmAfterFailures` of them the gateway raises `siem_sink_failing` — the metric, and a
 * message to the alarm channel (a webhook on loopback) — once for the incident.
 */
describe('the SIEM sink alarm', () => {
  let peers: NotificationPeers;
  let gw: TestGateway;

  const alarms = () =>
    peers.received.filter((m) => m.path === '/hook/alarm' && m.body?.alarm?.kind === 'siem_sink_failing');
  const metrics = async () => (await gw.api('GET', '/metrics')).text;

  beforeAll(async () => {
    peers = await new NotificationPeers().start();
    const closed = await freePort();
    const platformYaml = [
      'siem:',
      `  sinks: [{ name: soc, kind: syslog, host: 127.0.0.1, port: ${closed}, timeoutMs: 2000 }]`,
      '  intervalMs: 50',
      '  retryBaseMs: 10',
      '  retryMaxMs: 50',
      '  alarmAfterFailures: 3',
      'notifications:',
      '  alarms:',
      '    minIntervalMs: 1000',
      '    channels:',
      `      ops: { type: webhook, url: '${peers.url}/hook/alarm' }`,
      '',
    ].join('\n');
    gw = await startTestGateway({ env: { TOOLGATE_CONFIG_DIR: makeConfigDir({}, platformYaml) } });
    // An event for the sink to send.
    const agent = await gw.createKey('agent', 'acme');
    const res = await gw.api('POST', '/v1/agents/ops_assistant/tools/read_logs/invoke', {
      key: agent,
      body: { input: { service: 'payment-api', limit: 1 } },
    });
    expect(res.body.status).toBe('ok');
  });
  afterAll(async () => {
    await gw?.close();
    await peers?.close();
  });

  it('raises siem_sink_failing once the sink failed alarmAfterFailures attempts in a row, once per incident', async () => {
    // Hang guard only: the forwarder retries every 10–50 ms.
    const [message] = await waitFor(() => alarms().length > 0 && alarms(), {
      timeoutMs: 30_000,
      what: 'the alarm channel to hear of the failing sink',
    });
    expect(message!.body.alarm).toMatchObject({
      kind: 'siem_sink_failing',
      summary: expect.stringMatching(/^SIEM sink soc: 3 attempts failed in a row \(last: .+\)$/),
    });
    expect(counter(await metrics(), 'toolgate_audit_alarms_total{kind="siem_sink_failing"}')).toBe(1);
    // The sink keeps failing: more failures, the same incident, no second alarm.
    const sinks = async () => (await gw.api('GET', '/v1/audit/sinks')).body.data.sinks;
    await waitFor(async () => (await sinks())[0].here.failures >= 10, {
      timeoutMs: 30_000,
      what: 'ten failed attempts',
    });
    expect(counter(await metrics(), 'toolgate_audit_alarms_total{kind="siem_sink_failing"}')).toBe(1);
    expect(alarms()).toHaveLength(1);
  });
});
