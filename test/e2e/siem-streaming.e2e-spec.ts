import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  callApi,
  createTestDatabase,
  freePort,
  makeConfigDir,
  makeTestPki,
  openRawSql,
  startGatewayProcess,
  startHttpsReceiver,
  startRsyslog,
  testDatabaseKind,
  waitFor,
  type GatewayProcess,
  type HttpsReceiver,
  type RawSql,
  type RsyslogInstance,
  type TestDatabase,
  type TestPki,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ADMIN = 'tg_siem-test-admin-key-0123456789';
const HMAC = 'siem-test-hmac-secret';
/** Events per batch of every sink: the duplicates window of ADR 038 is counted in batches. */
const BATCH = 20;
const TENANTS = ['acme', 'globex'];

/** `(tenant, seq)` as one key. */
const keyOf = (tenant: unknown, seq: unknown) => `${String(tenant)}/${String(seq)}`;

/** How many times each key arrived. */
function tally(keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts;
}

/** The `key=value` extension fields of a CEF line that the test reads (values without spaces). */
function cefField(line: string, key: string): string | undefined {
  return new RegExp(`(?:^| )${key}=(\\S*)`).exec(line.slice(line.indexOf('CEF:0|')))?.[1];
}

// Every committed event of every tenant reaches three real receivers — rsyslogd over TCP (JSON),
// rsyslogd over TLS (CEF), a loopback HTTPS receiver (signed JSON lines) — and a fourth that
// refuses one kind of record, whose events become dead letters. The receivers are killed
// mid-stream, then the gateway is: after both come back, nothing is missing, and nothing arrived
// more often than ADR 038's window allows.
describe('SIEM streaming survives a dead receiver and a dead gateway', () => {
  let db: TestDatabase;
  let sql: RawSql;
  let pki: TestPki;
  let env: Record<string, string>;
  let gateway: GatewayProcess | undefined;
  let syslogTcp: RsyslogInstance;
  let syslogTls: RsyslogInstance;
  let https: HttpsReceiver;
  let picky: HttpsReceiver;
  const refusedKeys = new Set<string>();

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-siem-'));
    pki = makeTestPki(join(dir, 'pki'));
    [syslogTcp, syslogTls] = await Promise.all([
      startRsyslog(join(dir, 'rsyslog-tcp'), await freePort()),
      startRsyslog(join(dir, 'rsyslog-tls'), await freePort(), pki),
    ]);
    https = await startHttpsReceiver(pki, await freePort(), HMAC);
    // A receiver that will never take a key_created record (422): those become dead letters.
    picky = await startHttpsReceiver(pki, await freePort(), HMAC, (lines) => {
      const refused = lines.filter((l) => l.event === 'key_created');
      for (const l of refused) refusedKeys.add(keyOf(l.tenantId, l.seq));
      return refused.length ? 422 : undefined;
    });
    const yaml = `
siem:
  intervalMs: 100
  leaseMs: 5000
  retryBaseMs: 200
  retryMaxMs: 1000
  sinks:
    - { name: syslog-tcp, kind: syslog, host: 127.0.0.1, port: ${syslogTcp.port}, payload: json, batchSize: ${BATCH}, timeoutMs: 5000 }
    - { name: syslog-tls, kind: syslog, host: 127.0.0.1, port: ${syslogTls.port}, payload: cef, batchSize: ${BATCH}, timeoutMs: 5000,
        tls: { caFile: '${pki.caFile}' } }
    - { name: https, kind: https, url: '${https.url}', hmacSecretEnv: TOOLGATE_TEST_SIEM_HMAC, batchSize: ${BATCH}, timeoutMs: 5000,
        tls: { caFile: '${pki.caFile}' } }
    - { name: picky, kind: https, url: '${picky.url}', hmacSecretEnv: TOOLGATE_TEST_SIEM_HMAC, batchSize: ${BATCH}, timeoutMs: 5000,
        tls: { caFile: '${pki.caFile}' } }
egress:
  allowCidrs: [127.0.0.1]
`;
    db = await createTestDatabase();
    env = {
      DATABASE_URL: db.url,
      TOOLGATE_DEMO: 'on',
      TOOLGATE_ADMIN_KEY: ADMIN,
      TOOLGATE_INSTANCE_ID: 'siem-test',
      TOOLGATE_CONFIG_DIR: makeConfigDir({}, yaml),
      TOOLGATE_DATA_DIR: join(dir, 'data'),
      TOOLGATE_TEST_SIEM_HMAC: HMAC,
      TOOLGATE_AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519')
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      TOOLGATE_AUDIT_SECRET: randomBytes(32).toString('hex'),
    };
    gateway = await startGatewayProcess(env);
    sql = await openRawSql(db);
  }, 180_000);

  afterAll(async () => {
    await gateway?.stop();
    await Promise.all([syslogTcp?.stop(), syslogTls?.stop(), https?.kill(), picky?.kill()]);
    await sql?.close();
    await db?.drop();
  });

  /** Every committed event: (tenant, seq) → hash. */
  async function committed(): Promise<Map<string, string>> {
    const rows = await sql.query<{ tenant_id: string; seq: string | number; hash: string }>(
      'SELECT tenant_id, seq, hash FROM audit_events',
    );
    return new Map(rows.map((r) => [keyOf(r.tenant_id, Number(r.seq)), r.hash]));
  }

  const received = {
    tcp: () => syslogTcp.lines().map((l) => JSON.parse(l) as Record<string, unknown>),
    tls: () => syslogTls.lines(),
    https: () => https.batches.flatMap((b) => b.lines),
  };
  const arrivals = () => ({
    tcp: received.tcp().map((r) => keyOf(r.tenantId, r.seq)),
    tls: received.tls().map((l) => keyOf(cefField(l, 'cs1'), cefField(l, 'cn1'))),
    https: received.https().map((r) => keyOf(r.tenantId, r.seq)),
  });

  it('delivers every event at least once, and at most once more per incident and batch', async () => {
    const agents: string[] = [];
    for (const tenantId of TENANTS)
      agents.push(
        (
          await callApi(gateway!.url, 'POST', '/v1/admin/keys', {
            key: ADMIN,
            body: { name: `siem-${tenantId}`, role: 'agent', tenantId },
          })
        ).body.data.key,
      );
    let running = true;
    let answered = 0;
    // Audited calls in both tenants until told to stop; a call that fails (the gateway is down) waits and tries again.
    const traffic = agents.map(async (key) => {
      while (running) {
        const ok = await fetch(`${gateway!.url}/v1/agents/ops_assistant/tools/read_logs/invoke`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ input: { service: 'payment-api', limit: 2 } }),
        }).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) answered++;
        else await new Promise((r) => setTimeout(r, 100));
      }
    });
    const seen = () => Math.min(...Object.values(arrivals()).map((a) => a.length));

    // 1. The receivers die mid-stream (rsyslogd stopped, the HTTPS server cut), and come back.
    // SIGTERM for rsyslogd: syslog has no acknowledgement, so what a SIGKILLed rsyslogd had read but
    // not yet written is lost to any sender (ADR 038 §3: its durability is the receiver's own).
    await waitFor(() => seen() >= 100, { timeoutMs: 60_000, what: 'the first 100 events at every receiver' });
    await Promise.all([syslogTcp.stop('SIGTERM'), syslogTls.stop('SIGTERM'), https.kill()]);
    // The forwarder meets the dead receivers (failed attempts, a growing lag) while calls go on.
    await waitFor(
      async () => {
        const r = await callApi(gateway!.url, 'GET', '/v1/audit/sinks', { key: ADMIN });
        const list = r.body.data.sinks as { name: string; lag: number; here: { failures: number } }[];
        return list.filter((s) => s.name !== 'picky').every((s) => s.here.failures > 0 && s.lag > 0);
      },
      { timeoutMs: 60_000, intervalMs: 100, what: 'failed attempts at every dead receiver' },
    );
    [syslogTcp, syslogTls] = await Promise.all([syslogTcp.restart(), syslogTls.restart()]);
    await https.revive();

    // 2. The gateway dies mid-stream (SIGKILL), and comes back.
    const before = seen();
    await waitFor(() => seen() >= before + 100, {
      timeoutMs: 60_000,
      what: '100 more events after the receivers returned',
    });
    await gateway!.stop('SIGKILL');
    gateway = await startGatewayProcess(env);
    const answeredAtRestart = answered;
    await waitFor(() => answered >= answeredAtRestart + 40, {
      timeoutMs: 60_000,
      what: 'calls after the restart',
    });
    running = false;
    await Promise.all(traffic);

    // Caught up: every sink's lag is 0.
    const sinks = await waitFor(
      async () => {
        const r = await callApi(gateway!.url, 'GET', '/v1/audit/sinks', { key: ADMIN });
        const list = r.body.data.sinks as { name: string; lag: number; deadLetters: number }[];
        return list.every((s) => s.lag === 0) && list;
      },
      { timeoutMs: 60_000, intervalMs: 200, what: 'every sink to catch up' },
    );
    expect(sinks.map((s) => s.name)).toEqual(['syslog-tcp', 'syslog-tls', 'https', 'picky']);

    // A sink counts a batch delivered once the receiver has read it; rsyslogd writes its file a
    // moment later (omfile's buffer), so the files are awaited, the chain re-read each time (a
    // hang guard far above the time it takes; a lost event still fails below).
    const chain = await waitFor(
      async () => {
        const now = await committed();
        const all = Object.values(arrivals()).every((keys) => {
          const seen = new Set(keys);
          return [...now.keys()].every((k) => seen.has(k));
        });
        return all && now;
      },
      { timeoutMs: 30_000, intervalMs: 250, what: 'every committed event in every receiver' },
    ).catch(() => committed());
    const incidents = 2; // the receivers' death, the gateway's
    for (const [sink, keys] of Object.entries(arrivals())) {
      const counts = tally(keys);
      const missing = [...chain.keys()].filter((k) => !counts.has(k));
      expect(missing, `${sink}: missing events`).toEqual([]);
      expect(
        [...counts.keys()].filter((k) => !chain.has(k)),
        `${sink}: events the chain lacks`,
      ).toEqual([]);
      const extra = [...counts.values()].reduce((a, n) => a + n - 1, 0);
      // ADR 038: at most the batch in flight, per sink and tenant, is sent again per incident.
      expect(extra, `${sink}: copies beyond the first`).toBeLessThanOrEqual(
        incidents * TENANTS.length * BATCH,
      );
      console.log(`${sink}: ${chain.size} events, ${extra} arrived twice`);
    }
    // Every record carries the chain fields as the chain has them.
    for (const r of received.tcp()) expect(r.hash).toBe(chain.get(keyOf(r.tenantId, r.seq)));
    for (const r of received.https()) expect(r.hash).toBe(chain.get(keyOf(r.tenantId, r.seq)));
    for (const l of received.tls())
      expect(cefField(l, 'cs3')).toBe(chain.get(keyOf(cefField(l, 'cs1'), cefField(l, 'cn1'))));
    expect(https.batches.every((b) => b.signatureOk)).toBe(true);

    // The picky receiver took everything but the key_created records, which are its dead letters.
    const keyCreated = await sql.query<{ tenant_id: string; seq: string | number }>(
      `SELECT tenant_id, seq FROM audit_events WHERE event = 'key_created'`,
    );
    const dead = await callApi(gateway!.url, 'GET', '/v1/audit/sinks/picky/dead-letters?limit=500', {
      key: ADMIN,
    });
    expect(dead.status).toBe(200);
    const deadKeys = (dead.body.data.deadLetters as { tenantId: string; seq: number }[]).map((d) =>
      keyOf(d.tenantId, d.seq),
    );
    expect(deadKeys.sort()).toEqual(keyCreated.map((r) => keyOf(r.tenant_id, Number(r.seq))).sort());
    const pickyGot = new Set(picky.batches.flatMap((b) => b.lines.map((l) => keyOf(l.tenantId, l.seq))));
    expect([...chain.keys()].filter((k) => !pickyGot.has(k) && !deadKeys.includes(k))).toEqual([]);
    expect(sinks.find((s) => s.name === 'picky')!.deadLetters).toBe(keyCreated.length);

    // /metrics says the same; a tenant's admin may not read the sinks (they carry every tenant).
    const metrics = await fetch(`${gateway!.url}/metrics`, {
      headers: { authorization: `Bearer ${ADMIN}` },
    }).then((r) => r.text());
    expect(metrics).toMatch(/toolgate_siem_lag_events\{sink="https"\} 0/);
    expect(metrics).toMatch(new RegExp(`toolgate_siem_dead_letters\\{sink="picky"\\} ${keyCreated.length}`));
    expect(metrics).toMatch(/toolgate_siem_sent_total\{sink="syslog-tls"\} \d+/);
    const tenantAdmin = (
      await callApi(gateway!.url, 'POST', '/v1/admin/keys', {
        key: ADMIN,
        body: { name: 'acme-admin', role: 'tenant_admin', tenantId: 'acme' },
      })
    ).body.data.key;
    expect((await callApi(gateway!.url, 'GET', '/v1/audit/sinks', { key: tenantAdmin })).status).toBe(403);
  }, 300_000);
});

// Two gateways on one database: one forwards per sink (the lease), so with no incident nothing
// arrives twice; when it stops, the other takes the lease over and goes on where it left off.
// Two processes on one database: MariaDB only (SQLite is one gateway's own file).
describe.skipIf(testDatabaseKind() !== 'mariadb')('SIEM streaming with two gateways', () => {
  let db: TestDatabase;
  let sql: RawSql;
  let receiver: HttpsReceiver;
  const gateways: GatewayProcess[] = [];

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-siem-lease-'));
    const pki = makeTestPki(join(dir, 'pki'));
    receiver = await startHttpsReceiver(pki, await freePort(), HMAC);
    const yaml = `
siem:
  intervalMs: 100
  leaseMs: 3000
  sinks:
    - { name: https, kind: https, url: '${receiver.url}', hmacSecretEnv: TOOLGATE_TEST_SIEM_HMAC, batchSize: ${BATCH},
        tls: { caFile: '${pki.caFile}' } }
egress:
  allowCidrs: [127.0.0.1]
`;
    db = await createTestDatabase('mariadb');
    const common = {
      DATABASE_URL: db.url,
      TOOLGATE_DEMO: 'on',
      TOOLGATE_ADMIN_KEY: ADMIN,
      TOOLGATE_CONFIG_DIR: makeConfigDir({}, yaml),
      TOOLGATE_TEST_SIEM_HMAC: HMAC,
      TOOLGATE_AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519')
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      TOOLGATE_AUDIT_SECRET: randomBytes(32).toString('hex'),
    };
    for (const id of ['lease-a', 'lease-b'])
      gateways.push(
        await startGatewayProcess({ ...common, TOOLGATE_INSTANCE_ID: id, TOOLGATE_DATA_DIR: join(dir, id) }),
      );
    sql = await openRawSql(db);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.stop()));
    await receiver?.kill();
    await sql?.close();
    await db?.drop();
  });

  type Sink = { leaseHolder: string | null; here: { holding: boolean; sent: number } };
  const sinkOn = async (g: GatewayProcess): Promise<Sink> =>
    (await callApi(g.url, 'GET', '/v1/audit/sinks', { key: ADMIN })).body.data.sinks[0] as Sink;
  const arrived = () => receiver.batches.flatMap((b) => b.lines.map((l) => keyOf(l.tenantId, l.seq)));

  it('only the lease holder sends; the other takes over when it stops, and nothing arrives twice', async () => {
    const agent: string = (
      await callApi(gateways[0]!.url, 'POST', '/v1/admin/keys', {
        key: ADMIN,
        body: { name: 'siem-lease', role: 'agent', tenantId: 'acme' },
      })
    ).body.data.key;
    const call = (g: GatewayProcess) =>
      callApi(g.url, 'POST', '/v1/agents/ops_assistant/tools/read_logs/invoke', {
        key: agent,
        body: { input: { service: 'payment-api', limit: 1 } },
      });
    // Calls through both gateways: the events of one chain, written by either.
    for (let i = 0; i < 30; i++) await call(gateways[i % 2]!);
    const chainSize = async () =>
      Number((await sql.query<{ n: string }>('SELECT COUNT(*) AS n FROM audit_events'))[0]!.n);
    await waitFor(async () => arrived().length >= (await chainSize()), {
      timeoutMs: 60_000,
      what: 'every event at the receiver',
    });
    const [a, b] = await Promise.all(gateways.map(sinkOn));
    expect([a!.here.holding, b!.here.holding].filter(Boolean)).toHaveLength(1);
    expect(a!.leaseHolder).toBe(b!.leaseHolder);
    const holder = a!.here.holding ? 0 : 1;
    expect([a!, b!][1 - holder]!.here.sent).toBe(0);

    // The holder stops (giving its lease up); the other carries on.
    await gateways[holder]!.stop();
    const other = gateways[1 - holder]!;
    for (let i = 0; i < 20; i++) await call(other);
    await waitFor(async () => arrived().length >= (await chainSize()), {
      timeoutMs: 60_000,
      what: 'the events after the takeover at the receiver',
    });
    expect((await sinkOn(other)).here.holding).toBe(true);
    const counts = tally(arrived());
    expect([...counts.values()].filter((n) => n > 1)).toEqual([]);
    expect(counts.size).toBe(await chainSize());
  }, 240_000);
});
