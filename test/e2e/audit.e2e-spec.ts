import { eventHash, type AuditEventDraft } from '@toolgate/audit';
import {
  draftFromApiEvent,
  makeConfigDir,
  openRawSql,
  startTestGateway,
  waitFor,
  type RawSql,
  type TestGateway,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITECH_YAML, TestToolsModule } from './test-tools.js';

const PERSONAL = {
  name: '张三',
  phone: '13812345678',
  idNumber: '11010519491231002X',
  bankCard: '4111111111111111',
  email: 'zhang.san@example.com',
  password: 'hunter2-secret',
  secretAnswer: 'mother-maiden-name',
};

describe('the audit trail', () => {
  let gw: TestGateway;
  let sql: RawSql;
  let agent: string;
  let auditorAll: string;
  let auditorAcme: string;

  beforeAll(async () => {
    gw = await startTestGateway({
      env: { TOOLGATE_CONFIG_DIR: makeConfigDir({ initech: INITECH_YAML }) },
      imports: [TestToolsModule],
    });
    sql = await openRawSql(gw.db);
    agent = await gw.createKey('agent', 'initech');
    auditorAll = await gw.createKey('auditor');
    auditorAcme = await gw.createKey('auditor', 'acme');
  });
  afterAll(async () => {
    await sql?.close();
    await gw?.close();
  });

  const invoke = (tool: string, input: unknown) =>
    gw.api('POST', `/v1/agents/audit_tests/tools/${tool}/invoke`, { key: agent, body: { input } });
  const story = async (callId: string) =>
    (await gw.api('GET', `/v1/audit/calls/${callId}`, { key: auditorAll })).body.data;

  it('records one started and one finished per L1 call, for every outcome, and what a timed-out call did later', async () => {
    const ok = await invoke('record_note', { note: 'hello' });
    const failed = await invoke('record_note', { note: 'x', fail: true });
    const invalid = await invoke('record_note', { note: 42 });
    const timeout = await invoke('slow_note', {});
    expect([ok.body.status, failed.body.code, invalid.body.code, timeout.body.code]).toEqual([
      'ok',
      'UPSTREAM_ERROR',
      'INVALID_INPUT',
      'TIMEOUT',
    ]);
    // slow_note finishes 700 ms after its 300 ms limit; its late_completion event follows.
    await waitFor(
      async () =>
        (await story(timeout.headers.get('x-call-id')!)).events.some(
          (e: any) => e.event === 'late_completion',
        ),
      { what: 'the timed-out call to record its late completion' },
    );
    const expected: [typeof ok, string | null][] = [
      [ok, null],
      [failed, 'UPSTREAM_ERROR'],
      [invalid, 'INVALID_INPUT'],
      [timeout, 'TIMEOUT'],
    ];
    for (const [res, code] of expected) {
      const s = await story(res.headers.get('x-call-id')!);
      const count = (name: string) => s.events.filter((e: any) => e.event === name).length;
      expect(count('started')).toBe(1);
      expect(count('finished')).toBe(1);
      const finished = s.events.find((e: any) => e.event === 'finished');
      expect(finished.code).toBe(code);
      expect(finished.status).toBe(code ? 'error' : 'ok');
      expect(finished.actor.type).toBe('api_key');
      expect(finished.definitionHash).toMatch(/^[0-9a-f]{64}$/);
      expect(finished.bindingVersion).toBe(1);
    }
    const late = (await story(timeout.headers.get('x-call-id')!)).events.find(
      (e: any) => e.event === 'late_completion',
    );
    expect(late).toMatchObject({ status: 'ok', outputSummary: { json: '{"finallyDone":true}' } });
    // An L0 call is on the trail too, in one `accessed` event written after it answered (issue 23).
    const l0 = await invoke('noop', {});
    const l0Story = await waitFor(async () => {
      const res = await gw.api('GET', `/v1/audit/calls/${l0.headers.get('x-call-id')}`, { key: auditorAll });
      return res.status === 200 && res.body.data;
    });
    expect(l0Story.events.map((e: any) => e.event)).toEqual(['accessed']);
    expect(l0Story.events[0]).toMatchObject({ tool: 'noop', riskLevel: 'L0', status: 'ok', input: {} });
  });

  it('stores no phone, ID, bank card, e-mail, password or sensitive field in any row', async () => {
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        invoke('record_contact', { ...PERSONAL, note: `第 ${i} 次，回电 ${PERSONAL.phone}` }),
      ),
    );
    await invoke('record_contact', { ...PERSONAL, name: 42 }); // invalid input is audited too, redacted as well
    const rows = await sql.query('SELECT * FROM audit_events');
    const raw = JSON.stringify(rows);
    for (const secret of Object.values(PERSONAL).slice(1)) expect(raw).not.toContain(secret);
    expect(raw).toContain('138****5678');
    expect(raw).toContain('110105********002X');
    expect(rows.length).toBeGreaterThan(120);
  });

  it('pages with a stable cursor, filters, and keeps each auditor to its scope', async () => {
    const first = await gw.api('GET', '/v1/audit/events?tenantId=initech&limit=5', { key: auditorAll });
    expect(first.body.data.items).toHaveLength(5);
    await invoke('record_note', { note: 'arrives between two pages' });
    const second = await gw.api(
      'GET',
      `/v1/audit/events?tenantId=initech&limit=5&cursor=${first.body.data.nextCursor}`,
      { key: auditorAll },
    );
    const ids = [...first.body.data.items, ...second.body.data.items].map((e: any) => Number(e.id));
    expect(new Set(ids).size).toBe(10);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const errors = await gw.api('GET', '/v1/audit/events?tool=record_note&status=error&limit=50', {
      key: auditorAll,
    });
    expect(errors.body.data.items.length).toBeGreaterThan(0);
    expect(errors.body.data.items.every((e: any) => e.tool === 'record_note' && e.status === 'error')).toBe(
      true,
    );
    expect((await gw.api('GET', '/v1/audit/events?tenantId=initech', { key: auditorAcme })).status).toBe(403);
    const acmeOnly = await gw.api('GET', '/v1/audit/events?limit=200', { key: auditorAcme });
    expect(acmeOnly.body.data.items.length).toBeGreaterThan(0);
    expect(acmeOnly.body.data.items.every((e: any) => e.tenantId === 'acme')).toBe(true);
    const someCall = errors.body.data.items[0].callId;
    expect((await gw.api('GET', `/v1/audit/calls/${someCall}`, { key: auditorAcme })).status).toBe(404);
    expect((await gw.api('GET', '/v1/audit/events', { key: agent })).status).toBe(403);
  });

  it('keeps only the indexes the chain needs on audit_events, and still answers the tool and actor filters (ADR 043)', async () => {
    const names = (
      gw.db.kind === 'sqlite'
        ? await sql.query<{ name: string }>(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audit_events'",
          )
        : (await sql.query<{ Key_name: string }>('SHOW INDEX FROM audit_events')).map((r) => ({
            name: r.Key_name,
          }))
    ).map((r) => r.name);
    expect(names).toEqual(
      expect.arrayContaining(['uq_audit_tenant_seq', 'idx_audit_tenant_time', 'idx_audit_call']),
    );
    expect(names).not.toContain('idx_audit_tool');
    expect(names).not.toContain('idx_audit_actor');

    await invoke('record_note', { note: 'found by its actor' });
    const mine = await gw.api('GET', '/v1/audit/events?tenantId=initech&tool=record_note&limit=1', {
      key: auditorAll,
    });
    const actorId = mine.body.data.items[0].actor.id;
    const byActor = await gw.api('GET', `/v1/audit/events?tenantId=initech&actorId=${actorId}&limit=50`, {
      key: auditorAll,
    });
    expect(byActor.body.data.items.length).toBeGreaterThan(1);
    expect(byActor.body.data.items.every((e: any) => e.actor.id === actorId)).toBe(true);
  });

  it('exports CSV that Excel opens with Chinese intact, and JSON Lines', async () => {
    const csv = await gw.api('GET', '/v1/audit/export?format=csv&tenantId=initech&tool=record_contact', {
      key: auditorAll,
    });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const bytes = new Uint8Array(
      await (
        await fetch(`${gw.url}/v1/audit/export?format=csv&tenantId=initech`, {
          headers: { authorization: `Bearer ${auditorAll}` },
        })
      ).arrayBuffer(),
    );
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // the UTF-8 BOM Excel needs for Chinese text
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/^id,tenantId,seq,occurredAt,event,/);
    expect(lines.length).toBeGreaterThan(100);
    expect(csv.text).toContain('已记录');
    const jsonl = await gw.api('GET', '/v1/audit/export?format=jsonl&tenantId=initech', { key: auditorAll });
    const parsed = jsonl.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(parsed.every((e) => e.tenantId === 'initech' && /^[0-9a-f]{64}$/.test(e.hash))).toBe(true);
  });

  it('records key and binding events in the trail', async () => {
    const imports = await gw.api('GET', '/v1/audit/events?event=binding_changed&tenantId=acme', {
      key: auditorAll,
    });
    expect(imports.body.data.items.map((e: any) => e.agentType).sort()).toEqual([
      'contract_review',
      'ops_assistant',
    ]);
    const created = await gw.api('POST', '/v1/admin/keys', {
      body: { name: 'to revoke', role: 'agent', tenantId: 'globex' },
    });
    await gw.api('DELETE', `/v1/admin/keys/${created.body.data.id}`);
    const keyEvents = await gw.api('GET', '/v1/audit/events?tenantId=globex&limit=10', { key: auditorAll });
    const mine = keyEvents.body.data.items.filter((e: any) => e.details?.keyId === created.body.data.id);
    expect(mine.map((e: any) => e.event)).toEqual(['key_revoked', 'key_created']);
    expect(JSON.stringify(keyEvents.body)).not.toContain(created.body.data.key);
  });

  describe('verification', () => {
    const verify = async () =>
      (await gw.api('GET', '/v1/audit/verify?tenantId=initech', { key: auditorAll })).body.data;
    const events = async () =>
      (
        await gw.api('GET', '/v1/audit/events?tenantId=initech&limit=500', { key: auditorAll })
      ).body.data.items.reverse();

    beforeAll(async () => {
      for (let i = 0; i < 10; i++) await invoke('record_note', { note: `before checkpoint ${i}` });
      expect(
        (await gw.api('POST', '/v1/audit/checkpoints', { key: auditorAll, body: { tenantId: 'initech' } }))
          .status,
      ).toBe(201);
      await sql.query('CREATE TABLE audit_events_backup AS SELECT * FROM audit_events');
      await sql.query('CREATE TABLE audit_heads_backup AS SELECT * FROM audit_chain_heads');
    });
    const restore = async () => {
      await sql.query('DELETE FROM audit_events');
      await sql.query('INSERT INTO audit_events SELECT * FROM audit_events_backup');
      await sql.query('DELETE FROM audit_chain_heads');
      await sql.query('INSERT INTO audit_chain_heads SELECT * FROM audit_heads_backup');
      expect((await verify()).ok).toBe(true);
    };

    it('passes on an untouched chain', async () => {
      const v = await verify();
      expect(v).toMatchObject({ ok: true });
      expect(v.checked).toBeGreaterThan(100);
    });

    it('names an event whose input was edited by SQL', async () => {
      const target = (await events())[20];
      await sql.query(`UPDATE audit_events SET input = ? WHERE id = ?`, ['{"note":"forged"}', target.id]);
      expect(await verify()).toMatchObject({ ok: false, firstBrokenEventId: target.id });
      await restore();
    });

    it('names the event after one deleted from the middle', async () => {
      const all = await events();
      await sql.query('DELETE FROM audit_events WHERE id = ?', [all[30].id]);
      const v = await verify();
      expect(v).toMatchObject({ ok: false, firstBrokenEventId: all[31].id });
      expect(v.problem).toContain('missing');
      await restore();
    });

    it('notices the newest events deleted', async () => {
      const all = await events();
      await sql.query(`DELETE FROM audit_events WHERE tenant_id = 'initech' AND seq > ?`, [all.length - 5]);
      await sql.query(`UPDATE audit_chain_heads SET seq = ?, head_hash = ? WHERE tenant_id = 'initech'`, [
        all.length - 5,
        all[all.length - 6].hash,
      ]);
      const v = await verify();
      expect(v.ok).toBe(false);
      expect(v.problem).toContain('newest events deleted');
      await restore();
    });

    it('names a forged row, with or without a correct hash', async () => {
      const all = await events();
      const last = all.at(-1);
      const forged: AuditEventDraft = {
        ...draftFromApiEvent(last),
        event: 'finished',
        code: null,
        occurredAt: new Date(),
      };
      const seq = last.seq + 1;
      // Even with the chain key (a leaked audit secret), a row the gateway did not write is caught.
      const hash = eventHash(gw.settings.audit.chainKey, last.hash, forged, seq);
      await sql.query(
        `INSERT INTO audit_events (tenant_id, seq, event, actor_type, actor_id, occurred_at, prev_hash, hash, call_id, tool, status) VALUES ('initech', ?, 'finished', 'api_key', ?, ?, ?, ?, ?, ?, 'ok')`,
        [
          seq,
          last.actor.id,
          forged.occurredAt.toISOString().replace('T', ' ').replace('Z', ''),
          last.hash,
          hash,
          last.callId,
          last.tool,
        ],
      );
      const [row] = await sql.query<{ id: string | number }>(
        `SELECT id FROM audit_events WHERE tenant_id = 'initech' AND seq = ?`,
        [seq],
      );
      const v = await verify();
      expect(v).toMatchObject({ ok: false, firstBrokenEventId: String(row!.id) });
      await restore();
    });

    it('catches an edit followed by re-hashing the rest of the chain, through the signed checkpoint', async () => {
      const all = await events();
      let prev = all[40 - 1].hash;
      for (let i = 40; i < all.length; i++) {
        const d = draftFromApiEvent(all[i]);
        const edited = i === 40 ? { ...d, input: { note: 'rewritten history' } } : d;
        // Re-hashing needs the chain key: this is someone who has it but not the signing key.
        const hash = eventHash(gw.settings.audit.chainKey, prev, edited, all[i].seq);
        await sql.query('UPDATE audit_events SET input = ?, prev_hash = ?, hash = ? WHERE id = ?', [
          JSON.stringify(edited.input),
          prev,
          hash,
          all[i].id,
        ]);
        prev = hash;
      }
      await sql.query(`UPDATE audit_chain_heads SET head_hash = ? WHERE tenant_id = 'initech'`, [prev]);
      const v = await verify();
      expect(v.ok).toBe(false);
      expect(v.problem).toContain('re-hashed');
      expect(Number(v.firstBrokenEventId)).toBeLessThanOrEqual(Number(all[40].id));
      await restore();
    });
  });

  it('exports the signed checkpoints with the public key', async () => {
    const cps = (await gw.api('GET', '/v1/audit/checkpoints?tenantId=initech', { key: auditorAll })).body
      .data;
    expect(cps.publicKeyPem).toContain('BEGIN PUBLIC KEY');
    expect(cps.checkpoints.length).toBeGreaterThan(0);
    expect(cps.checkpoints[0]).toMatchObject({ tenantId: 'initech', keyId: cps.keyId });
  });
});
