import {
  DATA_PROTECTION_OPTIONS,
  DataProtectionSections,
  ProcessingCounts,
  type DataProtectionOptions,
} from '@toolgate/data-protection';
import { makeConfigDir, startTestGateway, type TestGateway } from '@toolgate/testing';
import { DataSource } from 'typeorm';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRawSql, type RawSql } from '../support/raw-sql.js';
import { TestToolsModule } from './test-tools.js';

// Issue 24, ADR 047: the processing records' counts (PIPL 第55–56条) are not the trail. A purge of
// the trail (ADR 037) leaves them; they go only `compliance.processingRecordsDays` after the last
// call they counted (3 years by default, the least the profile allows).
const TENANT = `
id: pipl_kept
name: pipl_kept
agentTypes:
  contacts:
    tools:
      - record_contact
dataProtection:
  recipients:
    crm_cn: { region: CN }
  records:
    - { tool: record_contact, purpose: 客户档案, categories: [contact], recipient: crm_cn, legalBasis: contract }
`;

// ADR 048: the platform's profile is off here; a tenant file adds parts of it for its own tenant.
// `pipl_guarded` turns the cross-border guard on, `pipl_open` sends the same field to the same
// region without it.
const abroad = (id: string, compliance: string) => `
id: ${id}
name: ${id}
agentTypes:
  contacts:
    tools:
      - record_contact
dataProtection:
  recipients:
    crm_eu: { region: DE }
  records:
    - { tool: record_contact, purpose: 客户回访, categories: [contact], recipient: crm_eu, legalBasis: consent }
${compliance}`;
const GUARDED = abroad('pipl_guarded', 'compliance:\n  crossBorderGuard: true\n');
const OPEN = abroad('pipl_open', '');

/** Archive and purge everything a checkpoint covers, now (the profile's 180-day floor is off here). */
const PLATFORM = `
audit:
  checkpointIntervalMs: 0
  retention:
    defaultDays: 0
    minimumDays: 0
    archiveIntervalMs: 0
    wholeDays: false
    purgePauseMs: 0
`;

const DAY_MS = 86_400_000;

describe('processing records outlive the trail’s retention', () => {
  let gw: TestGateway;
  let sql: RawSql;
  let agent: string;

  beforeAll(async () => {
    gw = await startTestGateway({
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir(
          { pipl_kept: TENANT, pipl_guarded: GUARDED, pipl_open: OPEN },
          PLATFORM,
        ),
      },
      imports: [TestToolsModule],
    });
    sql = await openRawSql(gw.db);
    agent = await gw.createKey('agent', 'pipl_kept');
  });
  afterAll(async () => {
    await sql?.close();
    await gw?.close();
  });

  const contact = (key = agent) =>
    gw.api('POST', '/v1/agents/contacts/tools/record_contact/invoke', {
      key,
      body: {
        input: {
          name: '张三',
          phone: '13812345678',
          idNumber: '110101199003074578',
          bankCard: '6222020200112233445',
          email: 'zhang@example.com',
          password: 'x',
          secretAnswer: '母亲的名字',
        },
      },
    });
  const records = async () =>
    (await gw.api('GET', '/v1/admin/tenants/pipl_kept/processing-records')).body.data as any[];

  it('keeps the counts when the trail that recorded the calls is purged', async () => {
    for (let i = 0; i < 3; i++) expect((await contact()).body.status).toBe('ok');
    const before = await records();
    expect(before).toEqual([
      expect.objectContaining({
        recipient: 'crm_cn',
        regionSource: 'recipients',
        crossBorder: false,
        calls: 3,
      }),
    ]);
    expect(Date.parse(before[0].lastCountedAt)).toBeGreaterThan(0);

    const cp = await gw.api('POST', '/v1/audit/checkpoints', { body: { tenantId: 'pipl_kept' } });
    expect(cp.status).toBe(201);
    const run = await gw.api('POST', '/v1/admin/retention/run?tenantId=pipl_kept');
    expect(run.status, run.text).toBe(200);
    const purged = run.body.data[0].purgedThroughSeq as number;
    expect(purged).toBeGreaterThan(0);
    // The calls' events are gone from the database...
    const [{ n }] = await sql.query<{ n: number | string }>(
      "SELECT COUNT(*) AS n FROM audit_events WHERE tenant_id = 'pipl_kept' AND seq <= ?",
      [purged],
    );
    expect(Number(n)).toBe(0);
    // ...and the record of processing still counts them.
    expect(await records()).toEqual([expect.objectContaining({ recipient: 'crm_cn', calls: 3 })]);
  });

  it('removes a count only once its last call is older than processingRecordsDays (1095 by default)', async () => {
    expect(gw.settings.compliance.processingRecordsDays).toBe(1095);
    const counts = gw.app.get(ProcessingCounts);
    const lastAt = Date.parse((await records())[0].lastCountedAt);
    // A day short of three years after the last call: kept.
    expect(await counts.prune(new Date(lastAt + 1094 * DAY_MS))).toBe(0);
    expect((await records())[0].calls).toBe(3);
    // Three years and a day after it: gone.
    expect(await counts.prune(new Date(lastAt + 1096 * DAY_MS))).toBe(1);
    expect((await records())[0].calls).toBe(0);
  });

  describe('per-tenant additions to the profile (ADR 048)', () => {
    const exportFile = async (tenantId: string, key?: string) =>
      parse((await gw.api('GET', `/v1/admin/tenants/${tenantId}/export`, { key })).text);
    const importFile = (tenantId: string, doc: unknown, key?: string) =>
      gw.api('POST', `/v1/admin/tenants/${tenantId}/import`, { key, body: { yaml: stringify(doc) } });

    it('refuses a call for the tenant that added the guard, and passes the same call of another tenant', async () => {
      expect(gw.settings.compliance.profile).toBe('off');
      const guarded = await contact(await gw.createKey('agent', 'pipl_guarded'));
      expect(guarded.status, guarded.text).toBe(403);
      expect(guarded.body).toMatchObject({
        code: 'DATA_EXPORT_BLOCKED',
        details: { recipient: 'crm_eu', region: 'DE' },
      });
      const open = await contact(await gw.createKey('agent', 'pipl_open'));
      expect(open.body.status, open.text).toBe('ok');
      const records = async (tenantId: string) =>
        (await gw.api('GET', `/v1/admin/tenants/${tenantId}/processing-records`)).body.data as any[];
      expect((await records('pipl_open'))[0]).toMatchObject({ crossBorder: true, calls: 1 });
      expect((await records('pipl_guarded'))[0]).toMatchObject({ crossBorder: true, calls: 0 });
    });

    it('lets a tenant admin add a part through the API (audited, round trip), never take it away', async () => {
      const admin = await gw.createKey('tenant_admin', 'pipl_open');
      const doc = await exportFile('pipl_open', admin);
      expect(doc.compliance).toBeUndefined();
      doc.compliance = { crossBorderGuard: true, processingRecordsFloor: true };
      const added = await importFile('pipl_open', doc, admin);
      expect(added.status, added.text).toBe(200);
      // The export carries it back, and importing the export changes nothing.
      const again = await exportFile('pipl_open', admin);
      expect(again.compliance).toEqual({ crossBorderGuard: true, processingRecordsFloor: true });
      expect((await importFile('pipl_open', again, admin)).body.data.unchanged).toBe(true);
      const change = (await gw.api('GET', '/v1/audit/events?tenantId=pipl_open&event=tenant_changed')).body
        .data.items[0];
      expect(change.details.changes).toEqual(
        expect.arrayContaining([
          { path: 'settings.compliance', after: { crossBorderGuard: true, processingRecordsFloor: true } },
        ]),
      );
      // The guard applies from the new version on: the same call is refused now.
      expect((await contact(await gw.createKey('agent', 'pipl_open'))).body.code).toBe('DATA_EXPORT_BLOCKED');

      // Taking a part away is the platform admin's: refused for the tenant admin, named.
      const looser = { ...again, compliance: { processingRecordsFloor: true } };
      const refused = await importFile('pipl_open', looser, admin);
      expect(refused.status, refused.text).toBe(403);
      expect(refused.text).toContain('settings.compliance.crossBorderGuard');
      expect(refused.text).toContain('removing a part of the compliance profile');
    });

    it('refuses, at save, a part only the platform has and a retention below the floor a file adds', async () => {
      const doc = await exportFile('pipl_kept');
      const platformOnly = await importFile('pipl_kept', { ...doc, compliance: { separatedDuties: true } });
      expect(platformOnly.status).toBe(400);
      expect(platformOnly.text).toContain('separatedDuties is platform-wide and cannot be set per tenant');
      const short = await importFile('pipl_kept', {
        ...doc,
        audit: { ...doc.audit, retentionDays: 30 },
        compliance: { retentionFloor: true },
      });
      expect(short.status).toBe(400);
      expect(short.text).toContain('audit.retentionDays 30 is below it');
      // With the floor added, the tenant's retention is at least 180 days and the API refuses less.
      expect((await importFile('pipl_kept', { ...doc, compliance: { retentionFloor: true } })).status).toBe(
        200,
      );
      const [retention] = (await gw.api('GET', '/v1/audit/retention?tenantId=pipl_kept')).body.data;
      expect(retention).toMatchObject({ floorDays: 180, retentionDays: 180 });
      const below = await gw.api('PUT', '/v1/admin/tenants/pipl_kept/retention', { body: { days: 90 } });
      expect(below.status).toBe(400);
      expect(below.body.code).toBe('RETENTION_BELOW_FLOOR');
    });

    it('keeps the counts of a tenant that added processingRecordsFloor 3 years when the platform keeps fewer days', async () => {
      // The platform's own setting here is 1095 days: the same counter, with 400 days configured.
      const options = gw.app.get<DataProtectionOptions>(DATA_PROTECTION_OPTIONS);
      const short = new ProcessingCounts(
        gw.app.get(DataSource),
        { ...options, countsRetentionDays: 400, flushIntervalMs: 0, countsPruneIntervalMs: 0 },
        gw.app.get(DataProtectionSections),
      );
      const at = new Date(Date.now() - 500 * DAY_MS);
      short.count('pipl_open', 'record_contact', 'crm_old', true, at); // added the floor above
      short.count('pipl_guarded', 'record_contact', 'crm_old', true, at); // did not
      await short.flush();
      expect(await short.prune()).toBe(1);
      const left = (
        await sql.query<{ tenant_id: string }>(
          "SELECT tenant_id FROM processing_counts WHERE tenant_id IN ('pipl_open', 'pipl_guarded') AND recipient = 'crm_old'",
        )
      ).map((r) => r.tenant_id);
      expect(left).toEqual(['pipl_open']);
    });
  });
});
