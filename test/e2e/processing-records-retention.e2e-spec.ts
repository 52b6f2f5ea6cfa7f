import { ProcessingCounts } from '@toolgate/data-protection';
import { makeConfigDir, startTestGateway, type TestGateway } from '@toolgate/testing';
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
      env: { TOOLGATE_CONFIG_DIR: makeConfigDir({ pipl_kept: TENANT }, PLATFORM) },
      imports: [TestToolsModule],
    });
    sql = await openRawSql(gw.db);
    agent = await gw.createKey('agent', 'pipl_kept');
  });
  afterAll(async () => {
    await sql?.close();
    await gw?.close();
  });

  const contact = () =>
    gw.api('POST', '/v1/agents/contacts/tools/record_contact/invoke', {
      key: agent,
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
});
