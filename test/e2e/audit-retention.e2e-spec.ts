import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Client } from 'minio';
import { createConnection } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main as toolgateVerify } from '../../libs/audit/src/evidence/verify-cli.js';
import { checkArchive, checkEvidence, readArchiveDir, RetentionJob, unzipFiles } from '@toolgate/audit';
import { makeConfigDir } from '../support/config-dir.js';
import { openRawSql, type RawSql } from '../support/raw-sql.js';
import { startTestS3, type TestS3 } from '../support/s3-server.js';
import { createTestDatabase, MARIADB_ADMIN, testDatabaseKind } from '../support/test-database.js';
import { startTestGateway, type TestGateway } from '../support/test-gateway.js';

/**
 * Retention of the trail (ADR 037): closed ranges archived (a directory, or an S3 bucket on
 * loopback), then purged; verification, incremental verification, evidence and the offline
 * verifier still pass after the purge; a legal hold blocks purging; a retention below the floor is
 * refused; under the 等保 profile the purge goes through the triggers' one exemption.
 */

/** Archive the day so far, purge anything archived: retention measured in days cannot wait days here. */
const platformYaml = (extra = '') => `
audit:
  checkpointIntervalMs: 0
  retention:
    defaultDays: 0
    minimumDays: 0
    archiveIntervalMs: 0
    wholeDays: false
    purgeBatch: 7
    purgePauseMs: 0
${extra}`;

const DAY_MS = 86_400_000;

async function callTools(gw: TestGateway, key: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = await gw.api('POST', '/v1/agents/ops_assistant/tools/read_logs/invoke', {
      key,
      body: { input: { service: 'payment-api', limit: 1 + (i % 3) } },
    });
    expect(res.body.status, res.text).toBe('ok');
  }
}

/**
 * The key an act needs: the gateway's platform admin key, or under the 等保 profile the separated
 * administrator that holds the power (ADR 039): the audit admin for the trail, the system admin
 * for retention settings and runs.
 */
const keys = new WeakMap<TestGateway, { audit?: string; system?: string }>();
const asAdmin = (gw: TestGateway, duty: 'audit' | 'system') => keys.get(gw)?.[duty];
async function separateDuties(gw: TestGateway): Promise<void> {
  keys.set(gw, {
    audit: await gw.createKey('audit_admin'),
    system: await gw.createKey('system_admin'),
  });
}
const checkpoint = async (gw: TestGateway, tenantId = 'acme') => {
  const res = await gw.api('POST', '/v1/audit/checkpoints', {
    body: { tenantId },
    key: asAdmin(gw, 'audit'),
  });
  expect(res.status).toBe(201);
  return res.body.data.at(-1) as { seq: number };
};
const retentionOf = async (gw: TestGateway, tenantId = 'acme') =>
  (await gw.api('GET', `/v1/audit/retention?tenantId=${tenantId}`, { key: asAdmin(gw, 'audit') })).body
    .data[0];
const verify = async (gw: TestGateway, mode = '') =>
  (await gw.api('GET', `/v1/audit/verify?tenantId=acme${mode}`, { key: asAdmin(gw, 'audit') })).body.data;
const eventsOf = async (gw: TestGateway, event: string) =>
  (await gw.api('GET', `/v1/audit/events?tenantId=acme&event=${event}&limit=50`)).body.data.items as {
    details: Record<string, any>;
  }[];

describe('retention: archive to a directory, purge, and the trail still verifies', () => {
  let gw: TestGateway;
  let sql: RawSql;
  let key: string;

  beforeAll(async () => {
    gw = await startTestGateway({ env: { TOOLGATE_CONFIG_DIR: makeConfigDir({}, platformYaml()) } });
    sql = await openRawSql(gw.db);
    key = await gw.createKey('agent', 'acme');
  });
  afterAll(async () => {
    await sql?.close();
    await gw?.close();
  });

  it('archives closed ranges with signed manifests, purges them, and verify, evidence and the offline verifier pass', async () => {
    await callTools(gw, key, 6);
    const first = await checkpoint(gw);
    await callTools(gw, key, 5);
    const second = await checkpoint(gw);
    await callTools(gw, key, 2); // a tail no checkpoint covers: neither archived nor purged

    const run = await gw.api('POST', '/v1/admin/retention/run?tenantId=acme');
    expect(run.status).toBe(200);
    const status = run.body.data[0];
    expect(status).toMatchObject({
      tenantId: 'acme',
      retentionDays: 0,
      archivedThroughSeq: second.seq,
      purgedThroughSeq: second.seq,
      purgedEvents: second.seq,
      hold: null,
      purgeUnavailable: null,
    });
    expect(status.lastRun.archivedEvents).toBe(second.seq);
    expect(status.lastRun).toMatchObject({ archiveMs: expect.any(Number), purgeMs: expect.any(Number) });
    expect(status.headSeq).toBeGreaterThan(second.seq);

    // The database holds nothing up to the boundary; the projection lost the purged calls too.
    const [{ n }] = await sql.query<{ n: number | string }>(
      "SELECT COUNT(*) AS n FROM audit_events WHERE tenant_id = 'acme' AND seq <= ?",
      [second.seq],
    );
    expect(Number(n)).toBe(0);
    const [{ calls }] = await sql.query<{ calls: number | string }>(
      "SELECT COUNT(*) AS calls FROM audit_calls WHERE tenant_id = 'acme' AND last_seq <= ?",
      [second.seq],
    );
    expect(Number(calls)).toBe(0);

    // Verify starts at the archived boundary; incremental too.
    const full = await verify(gw);
    expect(full.ok, full.problem).toBe(true);
    expect(full.tenants[0].purgedThroughSeq).toBe(second.seq);
    const incremental = await verify(gw, '&mode=incremental');
    expect(incremental.ok, incremental.problem).toBe(true);

    // The archive: one range per checkpoint day-run, checked offline end to end.
    const archive = checkArchive(readArchiveDir(gw.settings.audit.archiveDir));
    expect(archive.exitCode, JSON.stringify(archive)).toBe(0);
    const acme = archive.tenants.find((t) => t.tenantId === 'acme')!;
    expect(acme).toMatchObject({
      firstSeq: 1,
      lastSeq: second.seq,
      events: second.seq,
      verified: second.seq,
    });
    expect(first.seq).toBeLessThan(second.seq);

    // Evidence of what is still in the database verifies offline too.
    const evidence = await fetch(`${gw.url}/v1/audit/evidence?tenantId=acme`, {
      headers: { authorization: `Bearer tg_test-admin-key-0123456789abcdef` },
    });
    expect(evidence.status).toBe(200);
    const report = checkEvidence(unzipFiles(Buffer.from(await evidence.arrayBuffer())));
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);

    // `npx toolgate-verify <archive dir>` (bin.mjs runs this main) says the same.
    const out: string[] = [];
    const write = vi
      .spyOn(process.stdout, 'write')
      .mockImplementation((chunk) => (out.push(String(chunk)), true));
    let exit: number;
    try {
      exit = await toolgateVerify([gw.settings.audit.archiveDir]);
    } finally {
      write.mockRestore();
    }
    expect(exit, out.join('')).toBe(0);
    expect(out.join('')).toMatch(
      new RegExp(`^VERIFIED\\ntenant acme: \\d+ archived ranges, seq 1–${second.seq}`),
    );

    // /metrics: how far each tenant is archived and purged.
    const metrics = (await gw.api('GET', '/metrics')).text;
    expect(metrics).toContain(`toolgate_audit_purged_seq{tenant="acme"} ${second.seq}`);
    expect(metrics).toContain(`toolgate_audit_archived_seq{tenant="acme"} ${second.seq}`);

    // The purge is in the trail, after the boundary.
    const [purged] = await eventsOf(gw, 'audit_purged');
    expect(purged!.details).toMatchObject({ throughSeq: second.seq, events: second.seq });
    expect((await verify(gw)).ok).toBe(true);
  });

  it('names an archived event edited in its file, by seq', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-archive-copy-'));
    const files = readArchiveDir(gw.settings.audit.archiveDir);
    for (const [name, body] of files) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), body);
    }
    const gz = [...files.keys()].find((k) => k.startsWith('archive/acme/') && k.endsWith('.jsonl.gz'))!;
    const lines = gunzipSync(readFileSync(join(dir, gz)))
      .toString('utf8')
      .trim()
      .split('\n');
    const edited = JSON.parse(lines[2]!) as { seq: number; code: string | null };
    lines[2] = JSON.stringify({ ...edited, code: 'FORGED' });
    writeFileSync(join(dir, gz), gzipSync(`${lines.join('\n')}\n`));
    const report = checkArchive(readArchiveDir(dir));
    expect(report.exitCode).toBe(1);
    const acme = report.tenants.find((t) => t.tenantId === 'acme')!;
    expect(acme.problems.map((p) => p.message).join('\n')).toMatch(/SHA-256/);
    expect(acme.problems.find((p) => p.seq !== undefined)?.seq).toBe(edited.seq);
  });

  it('a legal hold blocks purging (archiving goes on) until it is lifted; both are events with before and after', async () => {
    const held = await gw.api('PUT', '/v1/admin/tenants/acme/legal-hold', {
      body: { reason: 'case 2026-117: litigation hold' },
    });
    expect(held.status).toBe(200);
    expect(held.body.data.hold).toMatchObject({ reason: 'case 2026-117: litigation hold' });
    const before = await retentionOf(gw);

    await callTools(gw, key, 4);
    const cp = await checkpoint(gw);
    const run = (await gw.api('POST', '/v1/admin/retention/run?tenantId=acme')).body.data[0];
    expect(run.archivedThroughSeq).toBe(cp.seq);
    expect(run.purgedThroughSeq).toBe(before.purgedThroughSeq);
    expect(run.lastRun.purgeSkipped).toBe('hold');
    const [setHold] = await eventsOf(gw, 'retention_changed');
    expect(setHold!.details).toMatchObject({
      before: { hold: false },
      after: { hold: true, holdReason: 'case 2026-117: litigation hold' },
    });

    expect((await gw.api('DELETE', '/v1/admin/tenants/acme/legal-hold')).body.data.hold).toBeNull();
    const after = (await gw.api('POST', '/v1/admin/retention/run?tenantId=acme')).body.data[0];
    expect(after.purgedThroughSeq).toBe(cp.seq);
    expect((await verify(gw)).ok).toBe(true);

    // The lift is after the boundary; the hold's own event was archived and purged with its day.
    const [lifted] = await eventsOf(gw, 'retention_changed');
    expect(lifted!.details).toMatchObject({ before: { hold: true }, after: { hold: false } });
  });

  it('sets a tenant’s retention through the API, recorded with before and after', async () => {
    const res = await gw.api('PUT', '/v1/admin/tenants/acme/retention', { body: { days: 400 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ retentionDays: 400, retentionSource: 'api' });
    const [change] = await eventsOf(gw, 'retention_changed');
    expect(change!.details).toMatchObject({ before: { retentionDays: null }, after: { retentionDays: 400 } });
    expect((await gw.api('PUT', '/v1/admin/tenants/nosuch/retention', { body: { days: 400 } })).status).toBe(
      404,
    );
  });
});

describe('retention: archive to an S3 bucket (s3rver on loopback)', () => {
  let s3: TestS3;
  let gw: TestGateway;
  let key: string;

  beforeAll(async () => {
    s3 = await startTestS3();
    process.env.TG_TEST_S3_KEY = 'S3RVER';
    gw = await startTestGateway({
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir(
          {},
          platformYaml(`  archiveStore:
    s3:
      endpoint: ${s3.endpoint}
      bucket: toolgate-archive
      prefix: trail/
      accessKey: \${TG_TEST_S3_KEY}
      secretKey: \${TG_TEST_S3_KEY}
`),
        ),
        TG_TEST_S3_KEY: 'S3RVER',
      },
    });
    key = await gw.createKey('agent', 'acme');
  });
  afterAll(async () => {
    delete process.env.TG_TEST_S3_KEY;
    await gw?.close();
    await s3?.close();
  });

  it('writes ranges, manifests, keys and checkpoints to the bucket, purges, and verify and the offline check pass', async () => {
    await callTools(gw, key, 5);
    const cp = await checkpoint(gw);
    const status = (await gw.api('POST', '/v1/admin/retention/run?tenantId=acme')).body.data[0];
    expect(status).toMatchObject({ archivedThroughSeq: cp.seq, purgedThroughSeq: cp.seq });
    const full = await verify(gw);
    expect(full.ok, full.problem).toBe(true);
    expect(full.tenants[0].purgedThroughSeq).toBe(cp.seq);

    // Everything under the deployment's prefix, read back with a client of our own.
    const client = new Client({
      endPoint: '127.0.0.1',
      port: Number(new URL(s3.endpoint).port),
      useSSL: false,
      accessKey: 'S3RVER',
      secretKey: 'S3RVER',
      pathStyle: true,
    });
    const prefix = `trail/${gw.settings.audit.archiveS3!.prefix.slice('trail/'.length)}`;
    const names: string[] = [];
    for await (const o of client.listObjectsV2('toolgate-archive', prefix, true) as AsyncIterable<{
      name: string;
    }>)
      names.push(o.name);
    expect(names.some((n) => n.includes('/archive/acme/') && n.endsWith('.manifest.json'))).toBe(true);
    expect(names.some((n) => n.includes('/checkpoints/acme/'))).toBe(true);
    const files = new Map<string, Buffer>();
    for (const name of names) {
      const chunks: Buffer[] = [];
      for await (const c of await client.getObject('toolgate-archive', name)) chunks.push(c as Buffer);
      files.set(name.slice(prefix.length), Buffer.concat(chunks));
    }
    const report = checkArchive(files);
    expect(report.exitCode, JSON.stringify(report)).toBe(0);
    expect(report.tenants.find((t) => t.tenantId === 'acme')).toMatchObject({ firstSeq: 1, lastSeq: cp.seq });
  });
});

describe('retention under the 等保 profile: the floor, and the purge through the triggers’ one exemption', () => {
  const mariadb = testDatabaseKind() === 'mariadb';
  const purgeUser = `tg_purge_${randomBytes(4).toString('hex')}`;
  const purgePassword = randomBytes(12).toString('hex');
  let gw: TestGateway;
  let sql: RawSql;
  let key: string;
  let database = '';

  beforeAll(async () => {
    const db = await createTestDatabase();
    const env: Record<string, string> = {
      TOOLGATE_CONFIG_DIR: makeConfigDir({}, platformYaml()),
      TOOLGATE_COMPLIANCE_PROFILE: 'dengbao3',
      TOOLGATE_AUDIT_SECRET: randomBytes(32).toString('hex'),
      TOOLGATE_AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519')
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
    };
    if (mariadb) {
      database = new URL(db.url).pathname.slice(1);
      const admin = await createConnection(MARIADB_ADMIN);
      await admin.query('CREATE USER ?@? IDENTIFIED BY ?', [purgeUser, '%', purgePassword]);
      await admin.end();
      env.DATABASE_PURGE_URL = `mysql://${purgeUser}:${purgePassword}@127.0.0.1:3306/${database}`;
    }
    gw = await startTestGateway({ db, env });
    await separateDuties(gw);
    sql = await openRawSql(gw.db);
    key = await gw.createKey('agent', 'acme');
    if (mariadb) {
      // The purge account's rights: read and delete the trail, move its own boundary, tidy the projection.
      const admin = await createConnection(MARIADB_ADMIN);
      const grant = (rights: string, table: string) =>
        admin.query(`GRANT ${rights} ON \`${database}\`.\`${table}\` TO ?@?`, [purgeUser, '%']);
      await grant('SELECT, DELETE', 'audit_events');
      await grant('SELECT, INSERT, UPDATE', 'audit_purge_boundaries');
      await grant('SELECT, DELETE', 'audit_calls');
      await grant('SELECT, DELETE', 'audit_call_terms');
      await admin.end();
    }
  });
  afterAll(async () => {
    await sql?.close();
    await gw?.close();
    if (mariadb) {
      const admin = await createConnection(MARIADB_ADMIN);
      await admin.query('DROP USER IF EXISTS ?@?', [purgeUser, '%']);
      await admin.end();
    }
  });

  it('refuses a retention below the six-month floor with a clear envelope, and keeps the floor when the platform asks less', async () => {
    const system = asAdmin(gw, 'system');
    const refused = await gw.api('PUT', '/v1/admin/tenants/acme/retention', {
      body: { days: 30 },
      key: system,
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'RETENTION_BELOW_FLOOR',
      details: { days: 30, floorDays: 180 },
    });
    expect(refused.body.error).toMatch(/30 days is below the platform floor of 180 days/);
    expect(refused.body.suggestedAction).toMatch(/180/);
    // toolgate.yaml asks 0 days; the profile's floor applies instead.
    expect(await retentionOf(gw)).toMatchObject({
      retentionDays: 180,
      retentionSource: 'floor',
      floorDays: 180,
    });
    expect(
      (await gw.api('PUT', '/v1/admin/tenants/acme/retention', { body: { days: 200 }, key: system })).status,
    ).toBe(200);
  });

  it('purges archived events past retention through the exemption only; every other DELETE is still refused, and verify passes', async () => {
    await callTools(gw, key, 5);
    const cp = await checkpoint(gw);
    await callTools(gw, key, 2);

    // Today nothing is 200 days old: archived, not purged.
    const today = (
      await gw.api('POST', '/v1/admin/retention/run?tenantId=acme', { key: asAdmin(gw, 'system') })
    ).body.data[0];
    expect(today).toMatchObject({ archivedThroughSeq: cp.seq, purgedThroughSeq: 0 });

    // The same job, measured 201 days on (the route never takes a time; the job does, for this).
    const [run] = await gw.app.get(RetentionJob).run('acme', { now: new Date(Date.now() + 201 * DAY_MS) });
    expect(run!.problem).toBeUndefined();
    expect(run!.purgedEvents).toBe(cp.seq);
    const status = await retentionOf(gw);
    expect(status).toMatchObject({ purgedThroughSeq: cp.seq, purgeUnavailable: null });

    // The runtime account (root here) cannot delete even inside the window on MariaDB; outside it nobody can.
    const [next] = await sql.query<{ id: unknown }>(
      "SELECT id FROM audit_events WHERE tenant_id = 'acme' ORDER BY seq LIMIT 1",
    );
    await expect(sql.query('DELETE FROM audit_events WHERE id = ?', [next!.id])).rejects.toThrow(
      /append-only/,
    );
    await expect(sql.query("UPDATE audit_events SET code = 'FORGED'")).rejects.toThrow(/append-only/);
    if (mariadb)
      await expect(
        sql
          .query("UPDATE audit_purge_boundaries SET window_seq = 1000000 WHERE tenant_id = 'acme'")
          .then(() => sql.query('DELETE FROM audit_events WHERE id = ?', [next!.id])),
      ).rejects.toThrow(/append-only/);

    const full = await verify(gw);
    expect(full.ok, full.problem).toBe(true);
    expect(full.tenants[0].purgedThroughSeq).toBe(cp.seq);
    expect((await verify(gw, '&mode=incremental')).ok).toBe(true);
  });
});

describe.skipIf(testDatabaseKind() !== 'mariadb')(
  'retention under the 等保 profile on MariaDB without a purge account (DATABASE_PURGE_URL unset)',
  () => {
    let gw: TestGateway;

    beforeAll(async () => {
      gw = await startTestGateway({
        env: {
          TOOLGATE_CONFIG_DIR: makeConfigDir({}, platformYaml()),
          TOOLGATE_COMPLIANCE_PROFILE: 'dengbao3',
        },
      });
      await separateDuties(gw);
    });
    afterAll(async () => {
      await gw?.close();
    });

    it('archives, purges nothing, and says why', async () => {
      await callTools(gw, await gw.createKey('agent', 'acme'), 3);
      const cp = await checkpoint(gw);
      const [run] = await gw.app.get(RetentionJob).run('acme', { now: new Date(Date.now() + 201 * DAY_MS) });
      expect(run).toMatchObject({ archivedEvents: cp.seq, purgedEvents: 0 });
      expect(run!.purgeSkipped).toMatch(/DATABASE_PURGE_URL/);
      expect(await retentionOf(gw)).toMatchObject({
        archivedThroughSeq: cp.seq,
        purgedThroughSeq: 0,
        purgeUnavailable: expect.stringMatching(/DATABASE_PURGE_URL/),
      });
      expect((await verify(gw)).ok).toBe(true);
    });
  },
);

describe('retention waits for the SIEM sinks', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    // A sink whose receiver never answers (nothing listens on the port): it delivers nothing.
    const sink = `
siem:
  sinks:
    - { name: down, kind: syslog, host: 127.0.0.1, port: 9, payload: json }
  retryBaseMs: 60000
egress:
  allowCidrs: [127.0.0.1]
`;
    gw = await startTestGateway({ env: { TOOLGATE_CONFIG_DIR: makeConfigDir({}, platformYaml(sink)) } });
  });
  afterAll(() => gw?.close());

  it('archives but purges nothing a sink has not sent yet, and says why', async () => {
    const key = await gw.createKey('agent', 'acme');
    await callTools(gw, key, 3);
    const cp = await checkpoint(gw);
    const run = (await gw.api('POST', '/v1/admin/retention/run?tenantId=acme')).body.data[0];
    expect(run).toMatchObject({ archivedThroughSeq: cp.seq });
    expect(run.purgedThroughSeq ?? 0).toBe(0);
    expect(run.lastRun.purgedEvents).toBe(0);
    expect(run.lastRun.purgeSkipped).toMatch(/SIEM sinks.*seq 0/);
  });
});
