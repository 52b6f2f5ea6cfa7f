import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditWriter, CheckpointService, draftEvent, type AuditEventDraft } from '@toolgate/audit';
import {
  createTestDatabase,
  draftFromApiEvent,
  openRawSql,
  startTestGateway,
  type RawSql,
  type TestDatabase,
  type TestGateway,
} from '@toolgate/testing';
import { canonicalJson } from '@toolgate/toolkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A link as anyone can compute it without the chain key: plain SHA-256 over the previous hash and
 * the canonical form — version 1 is exactly how every event was hashed before links were keyed.
 */
function plainHash(prevHash: string, e: any, seq: number, v: 1 | 2): string {
  const { instanceId: _notHashed, occurredAt, ...fields } = draftFromApiEvent(e);
  const canonical = canonicalJson({ v, ...fields, seq, occurredAt: occurredAt.toISOString() });
  return createHash('sha256').update(`${prevHash}\n${canonical}`).digest('hex');
}

const COPIED = [
  'tenant_id',
  'event',
  'call_id',
  'tool',
  'implementation',
  'risk_level',
  'agent_type',
  'session_id',
  'actor_type',
  'actor_id',
  'initiator_id',
  'approver_id',
  'binding_version',
  'definition_hash',
  'input',
  'output_summary',
  'status',
  'code',
  'duration_ms',
  'details',
  'occurred_at',
  'instance_id',
].join(', ');

describe('the audit chain against someone with write access to the database', () => {
  let db: TestDatabase;
  let gw: TestGateway;
  let sql: RawSql;
  let auditor: string;
  const agents: Record<string, string> = {};
  // Kept across a restart: the database and the data directory (its audit secret keys the chain).
  const start = () => startTestGateway({ db, env: { TOOLGATE_DATA_DIR: dataDir } });
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-forgery-'));

  beforeAll(async () => {
    db = await createTestDatabase();
    gw = await start();
    sql = await openRawSql(gw.db);
    auditor = await gw.createKey('auditor');
    for (const tenant of ['acme', 'globex']) agents[tenant] = await gw.createKey('agent', tenant);
    for (let i = 0; i < 3; i++) await readLogs('acme');
    expect((await checkpointNow('acme')).status).toBe(201);
    for (let i = 0; i < 3; i++) await readLogs('acme');
  });
  afterAll(async () => {
    await sql?.close();
    await gw?.close();
    await db?.drop();
  });

  async function readLogs(tenant: string): Promise<void> {
    const res = await gw.api('POST', '/v1/agents/ops_assistant/tools/read_logs/invoke', {
      key: agents[tenant],
      body: { input: { service: 'search-api', limit: 3 } },
    });
    expect(res.body.status).toBe('ok');
  }
  const verify = async (tenant: string) =>
    (await gw.api('GET', `/v1/audit/verify?tenantId=${tenant}`, { key: auditor })).body.data;
  const checkpointNow = (tenant: string) =>
    gw.api('POST', '/v1/audit/checkpoints', { key: auditor, body: { tenantId: tenant } });
  /** A tenant's events, oldest first. */
  const events = async (tenant: string): Promise<any[]> =>
    (
      await gw.api('GET', `/v1/audit/events?tenantId=${tenant}&limit=500`, { key: auditor })
    ).body.data.items.reverse();

  /** Appends a copy of the tenant's newest event with `hash` and moves the chain head to it. */
  async function appendForged(tenant: string, hashOf: (last: any, seq: number) => string) {
    const last = (await events(tenant)).at(-1);
    const seq = last.seq + 1;
    const hash = hashOf(last, seq);
    await sql.query(
      `INSERT INTO audit_events (${COPIED}, seq, dedupe_key, prev_hash, hash)
       SELECT ${COPIED}, ?, NULL, ?, ? FROM audit_events WHERE id = ?`,
      [seq, last.hash, hash, last.id],
    );
    await sql.query('UPDATE audit_chain_heads SET seq = ?, head_hash = ? WHERE tenant_id = ?', [
      seq,
      hash,
      tenant,
    ]);
    const [row] = await sql.query<{ id: string | number }>(
      'SELECT id FROM audit_events WHERE tenant_id = ? AND seq = ?',
      [tenant, seq],
    );
    const undo = async () => {
      await sql.query('DELETE FROM audit_events WHERE id = ?', [row!.id]);
      await sql.query('UPDATE audit_chain_heads SET seq = ?, head_hash = ? WHERE tenant_id = ?', [
        last.seq,
        last.hash,
        tenant,
      ]);
      expect((await verify(tenant)).ok).toBe(true);
    };
    return { id: String(row!.id), seq, undo };
  }

  const forgeries = [
    ['the pre-upgrade formula (v1, plain SHA-256)', 1],
    ['the v2 canonical form hashed with plain SHA-256', 2],
  ] as const;

  it.each(forgeries)('verify names an event appended with %s', async (_, v) => {
    expect((await verify('acme')).ok).toBe(true);
    const forged = await appendForged('acme', (last, seq) => plainHash(last.hash, last, seq, v));
    expect(await verify('acme')).toMatchObject({ ok: false, firstBrokenEventId: forged.id });
    await forged.undo();
  });

  it.each(forgeries)('no checkpoint signs a head appended with %s', async (_, v) => {
    const forged = await appendForged('acme', (last, seq) => plainHash(last.hash, last, seq, v));
    const answer = await checkpointNow('acme');
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('AUDIT_CHAIN_BROKEN');
    expect(answer.body.details.refused).toMatchObject([{ tenantId: 'acme', firstBrokenEventId: forged.id }]);
    expect(JSON.stringify(answer.body)).not.toContain(`"seq":${forged.seq}`);
    const run = await gw.app.get(CheckpointService).run(['acme']);
    expect(run.checkpoints).toEqual([]);
    expect(run.refused).toMatchObject([{ tenantId: 'acme', firstBrokenEventId: forged.id }]);
    const [signed] = await sql.query<{ n: string | number }>(
      'SELECT COUNT(*) AS n FROM audit_checkpoints WHERE tenant_id = ? AND seq >= ?',
      ['acme', forged.seq],
    );
    expect(Number(signed!.n)).toBe(0);
    await forged.undo();
    await readLogs('acme');
    expect((await checkpointNow('acme')).body.data).toMatchObject([
      { tenantId: 'acme', seq: forged.seq + 1 },
    ]);
  });

  it('accepts a legacy chain continued with keyed links, and refuses a legacy link after a keyed one', async () => {
    // A database written before links were keyed: globex's whole chain hashed the v1 way.
    let prev = '0'.repeat(64);
    const legacy = await events('globex');
    for (const e of legacy) {
      const hash = plainHash(prev, e, e.seq, 1);
      await sql.query('UPDATE audit_events SET prev_hash = ?, hash = ? WHERE id = ?', [prev, hash, e.id]);
      prev = hash;
    }
    await sql.query('UPDATE audit_chain_heads SET head_hash = ? WHERE tenant_id = ?', [prev, 'globex']);
    await sql.query('DELETE FROM audit_checkpoints WHERE tenant_id = ?', ['globex']);
    // The upgrade: a gateway starts on that database. (The running one's view of the chain heads,
    // ADR 017, still holds what it wrote before the rewrite behind its back.)
    await gw.close();
    gw = await start();
    expect(await verify('globex')).toMatchObject({ ok: true, checked: legacy.length });
    expect((await checkpointNow('globex')).body.data).toMatchObject([{ seq: legacy.length }]);

    for (let i = 0; i < 3; i++) await readLogs('globex');
    const upgraded = await events('globex');
    const isLegacy = upgraded.map((e) => plainHash(e.prevHash, e, e.seq, 1) === e.hash);
    expect(isLegacy).toEqual(upgraded.map((_, i) => i < legacy.length));
    expect(await verify('globex')).toMatchObject({ ok: true, checked: upgraded.length });
    expect((await checkpointNow('globex')).body.data).toMatchObject([{ seq: upgraded.length }]);

    const forged = await appendForged('globex', (last, seq) => plainHash(last.hash, last, seq, 1));
    const v = await verify('globex');
    expect(v).toMatchObject({ ok: false, firstBrokenEventId: forged.id });
    expect(v.problem).toContain('unkeyed');
    expect(JSON.stringify((await checkpointNow('globex')).body)).not.toContain(`"seq":${forged.seq}`);
    await forged.undo();
  });
});

describe('call events of two tenants with the same call id', () => {
  let gw: TestGateway;
  let sql: RawSql;

  beforeAll(async () => {
    gw = await startTestGateway();
    sql = await openRawSql(gw.db);
  });
  afterAll(async () => {
    await sql?.close();
    await gw?.close();
  });

  const callEvent = (tenantId: string, event: 'started' | 'finished', callId: string): AuditEventDraft =>
    draftEvent({
      tenantId,
      event,
      callId,
      tool: 'read_logs',
      implementation: 'default',
      riskLevel: 'L1',
      agentType: 'ops_assistant',
      actor: { type: 'api_key', id: `key_${tenantId}` },
      bindingVersion: 1,
      status: event === 'finished' ? 'ok' : null,
      durationMs: event === 'finished' ? 3 : null,
      occurredAt: new Date(),
      instanceId: 'test',
    });

  it("records both, keeps each tenant's retries idempotent and closes each tenant's call only", async () => {
    const writer = gw.app.get(AuditWriter);
    const callId = 'call-id-both-tenants-use';
    const openRows = () =>
      sql.query<{ tenant_id: string }>(
        'SELECT tenant_id FROM audit_open_calls WHERE call_id = ? ORDER BY tenant_id',
        [callId],
      );
    expect(await writer.append([callEvent('globex', 'started', callId)])).toEqual(['written']);
    expect(await writer.append([callEvent('acme', 'started', callId)])).toEqual(['written']);
    expect(await writer.append([callEvent('acme', 'started', callId)])).toEqual(['dropped']);
    expect((await openRows()).map((r) => r.tenant_id)).toEqual(['acme', 'globex']);

    expect(await writer.append([callEvent('acme', 'finished', callId)])).toEqual(['written']);
    expect((await openRows()).map((r) => r.tenant_id)).toEqual(['globex']);
    expect(await writer.append([callEvent('acme', 'finished', callId)])).toEqual(['dropped']);
    expect(await writer.append([callEvent('globex', 'finished', callId)])).toEqual(['written']);
    expect(await openRows()).toEqual([]);

    const keys = await sql.query<{ tenant_id: string; dedupe_key: string }>(
      'SELECT tenant_id, dedupe_key FROM audit_events WHERE call_id = ? ORDER BY id',
      [callId],
    );
    expect(keys).toEqual([
      { tenant_id: 'globex', dedupe_key: `globex/${callId}:started` },
      { tenant_id: 'acme', dedupe_key: `acme/${callId}:started` },
      { tenant_id: 'acme', dedupe_key: `acme/${callId}:closed` },
      { tenant_id: 'globex', dedupe_key: `globex/${callId}:closed` },
    ]);
    expect((await gw.api('GET', '/v1/audit/verify')).body.data.ok).toBe(true);
  });

  it('closes a call opened before keys were tenant-scoped, once, and only for its own tenant', async () => {
    const writer = gw.app.get(AuditWriter);
    const callId = 'call-id-opened-before-upgrade';
    expect(await writer.append([callEvent('acme', 'started', callId)])).toEqual(['written']);
    // The dedupe key is not hashed: this is the row as a gateway before the upgrade wrote it.
    await sql.query('UPDATE audit_events SET dedupe_key = ? WHERE dedupe_key = ?', [
      `${callId}:started`,
      `acme/${callId}:started`,
    ]);
    expect(await writer.append([callEvent('acme', 'started', callId)])).toEqual(['dropped']);
    expect(await writer.append([callEvent('globex', 'finished', callId)])).toEqual(['dropped']);
    expect(await writer.append([callEvent('acme', 'finished', callId)])).toEqual(['written']);
    expect(await writer.append([callEvent('acme', 'finished', callId)])).toEqual(['dropped']);
    expect(await sql.query('SELECT call_id FROM audit_open_calls WHERE call_id = ?', [callId])).toEqual([]);
  });
});
