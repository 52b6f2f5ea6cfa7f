import type { LoggerService } from '@nestjs/common';
import { toolgateSignature } from '@toolgate/notifications';
import {
  makeConfigDir,
  openRawSql,
  startTestGateway,
  waitFor,
  type RawSql,
  type TestGateway,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotificationPeers } from './notification-peers.js';

/** Error lines the gateway logs, kept (Nest's logger is swapped for this one in the test). */
class CapturedLog implements LoggerService {
  readonly errors: string[] = [];
  log(): void {}
  warn(): void {}
  debug(): void {}
  verbose(): void {}
  error(message: unknown, ...rest: unknown[]): void {
    this.errors.push([message, ...rest].map(String).join(' '));
  }
}

/** The value of a counter series in the Prometheus text, 0 when absent. */
function counter(metrics: string, series: string): number {
  const line = metrics.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

/**
 * 等保 2.0 8.1.4.3 d) (ADR 039): the audit process protected from interruption is fail-closed
 * already; this is the alarm beside it. When audit writes fail or a verification finds a chain
 * broken, the gateway counts it in a metric, logs an error line, and tells the platform's alarm
 * channels (here a webhook and a WeCom robot, real HTTP servers on loopback), at most once per
 * kind per `minIntervalMs`.
 */
describe('the audit alarm', () => {
  let peers: NotificationPeers;
  let gw: TestGateway;
  let sql: RawSql;
  let agent: string;
  const log = new CapturedLog();
  const secret = 'alarm-webhook-secret';

  const alarmsOf = (kind: string) =>
    peers.received.filter((m) => m.path === '/hook/alarm' && m.body?.alarm?.kind === kind);
  const metrics = async () => (await gw.api('GET', '/metrics')).text;

  beforeAll(async () => {
    peers = await new NotificationPeers().start();
    process.env.TOOLGATE_NOTIFY_ALARM_SECRET = secret;
    process.env.TOOLGATE_NOTIFY_ALARM_WECOM = 'wecom-robot-key';
    const platformYaml = [
      'notifications:',
      '  alarms:',
      '    minIntervalMs: 3600000',
      '    channels:',
      '      ops:',
      '        type: webhook',
      `        url: ${peers.url}/hook/alarm`,
      '        secretEnv: TOOLGATE_NOTIFY_ALARM_SECRET',
      '      oncall:',
      '        type: wecom',
      `        url: ${peers.url}/cgi-bin/webhook/send`,
      '        tokenEnv: TOOLGATE_NOTIFY_ALARM_WECOM',
      '',
    ].join('\n');
    gw = await startTestGateway({ env: { TOOLGATE_CONFIG_DIR: makeConfigDir({}, platformYaml) } });
    gw.app.useLogger(log);
    sql = await openRawSql(gw.db);
    agent = await gw.createKey('agent', 'acme');
    const first = await gw.api('POST', '/v1/agents/ops_assistant/tools/read_logs/invoke', {
      key: agent,
      body: { input: { service: 'payment-api', limit: 2 } },
    });
    expect(first.body.status).toBe('ok');
  });
  afterAll(async () => {
    await sql?.close();
    await gw?.close();
    await peers?.close();
  });

  it('raises a chain found broken: a metric, an error line, and one signed message per channel', async () => {
    const before = counter(await metrics(), 'toolgate_audit_alarms_total{kind="audit_chain_broken"}');
    const [row] = await sql.query<{ id: unknown }>(
      "SELECT id FROM audit_events WHERE tenant_id = 'acme' AND tool = 'read_logs' ORDER BY seq LIMIT 1",
    );
    await sql.query("UPDATE audit_events SET code = 'EDITED' WHERE id = ?", [row!.id]);

    expect((await gw.api('GET', '/v1/audit/verify?tenantId=acme')).body.data.ok).toBe(false);
    const [message] = await waitFor(
      () => alarmsOf('audit_chain_broken').length > 0 && alarmsOf('audit_chain_broken'),
      {
        timeoutMs: 30_000, // hang guard: the message goes out beside the answer
        what: 'the alarm webhook to hear of the broken chain',
      },
    );
    expect(message!.body.alarm).toMatchObject({
      kind: 'audit_chain_broken',
      tenantId: 'acme',
      suppressed: 0,
    });
    const timestamp = message!.headers['x-toolgate-timestamp'] as string;
    expect(message!.headers['x-toolgate-signature']).toBe(toolgateSignature(secret, timestamp, message!.raw));
    const wecom = await waitFor(() =>
      peers.received.find((m) => m.path === '/cgi-bin/webhook/send' && m.raw.includes('audit_chain_broken')),
    );
    expect(wecom.query.get('key')).toBe('wecom-robot-key');
    expect(wecom.body.markdown.content).toMatch(/平台告警 \/ Platform alarm: audit_chain_broken/);

    expect(
      counter(await metrics(), 'toolgate_audit_alarms_total{kind="audit_chain_broken"}'),
    ).toBeGreaterThan(before);
    expect(await metrics()).toMatch(/toolgate_audit_alarm_last_seconds\{kind="audit_chain_broken"\} \d/);
    expect(log.errors.some((l) => /AUDIT ALARM audit_chain_broken \(tenant acme\)/.test(l))).toBe(true);

    // Within minIntervalMs the same kind is counted and logged, not sent again.
    const raised = counter(await metrics(), 'toolgate_audit_alarms_total{kind="audit_chain_broken"}');
    expect((await gw.api('GET', '/v1/audit/verify?tenantId=acme')).body.data.ok).toBe(false);
    expect(
      counter(await metrics(), 'toolgate_audit_alarms_total{kind="audit_chain_broken"}'),
    ).toBeGreaterThan(raised);
    expect(alarmsOf('audit_chain_broken')).toHaveLength(1);
  });

  it('raises audit writes that fail, while the calls they were for fail closed', async () => {
    const refuseInserts =
      gw.db.kind === 'sqlite'
        ? "CREATE TRIGGER test_refuse_audit BEFORE INSERT ON audit_events BEGIN SELECT RAISE(ABORT, 'the audit store refuses'); END"
        : "CREATE TRIGGER test_refuse_audit BEFORE INSERT ON audit_events FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'the audit store refuses'";
    await sql.query(refuseInserts);
    try {
      const refused = await gw.api('POST', '/v1/agents/ops_assistant/tools/read_logs/invoke', {
        key: agent,
        body: { input: { service: 'payment-api', limit: 2 } },
      });
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('AUDIT_UNAVAILABLE');
      const [message] = await waitFor(
        () => alarmsOf('audit_write_failed').length > 0 && alarmsOf('audit_write_failed'),
        { timeoutMs: 30_000, what: 'the alarm webhook to hear of the failed write' },
      );
      expect(message!.body.alarm.summary).toMatch(/refuses|failed/);
      expect(
        counter(await metrics(), 'toolgate_audit_alarms_total{kind="audit_write_failed"}'),
      ).toBeGreaterThan(0);
      expect(log.errors.some((l) => l.includes('AUDIT ALARM audit_write_failed'))).toBe(true);
    } finally {
      await sql.query('DROP TRIGGER test_refuse_audit');
    }
  });
});
