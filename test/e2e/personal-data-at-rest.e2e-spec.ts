import { readFileSync, existsSync } from 'node:fs';
import {
  makeConfigDir,
  openRawSql,
  questionOf,
  startFakeOpenAI,
  startTestGateway,
  toolResultsOf,
  waitFor,
  type FakeOpenAI,
  type FakeReply,
  type RawSql,
  type TestGateway,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARE_YAML, PiiToolsModule, PLANTED } from './pii-tools.js';

/**
 * Raw personal data only while a call may still run (issue 23, ADR 036). Each kind of personal
 * data is planted in the inputs and outputs of calls that end every way — ok, a tool error, a
 * refused approval, parked then approved, inside an agent run, with an Idempotency-Key — and once
 * they ended, no planted value is anywhere in the database: on SQLite not in the database file nor
 * in its WAL (no checkpoint forced: a WAL keeps every page image written since the last one), on
 * MariaDB in no text column of any table.
 */

const RAW = Object.values(PLANTED);

const CUSTOMER = {
  customer: PLANTED.name,
  phone: PLANTED.phone,
  idNumber: PLANTED.idNumber,
  email: PLANTED.email,
  bankCard: PLANTED.bankCard,
  note: `回电 ${PLANTED.phone}，邮箱 ${PLANTED.email}，卡号 ${PLANTED.bankCard}，身份证 ${PLANTED.idNumber}`,
};

const say = (text: string): FakeReply => ({
  text,
  usage: { inputTokens: 10, outputTokens: 5 },
  finishReason: 'stop',
});

/** Where the planted values are in a buffer or text (empty: nowhere). */
function found(haystack: Buffer | string): string[] {
  const text = typeof haystack === 'string' ? haystack : haystack.toString('latin1');
  return RAW.filter((v) =>
    text.includes(typeof haystack === 'string' ? v : Buffer.from(v).toString('latin1')),
  );
}

/** Every value of every text-like column of every table of a MariaDB database, as one text. */
async function everyTextColumn(sql: RawSql): Promise<{ text: string; columns: number }> {
  const columns = await sql.query<{ t: string; c: string }>(
    `SELECT TABLE_NAME AS t, COLUMN_NAME AS c FROM information_schema.COLUMNS
      WHERE TABLE_SCHEMA = DATABASE()
        AND DATA_TYPE IN ('char','varchar','tinytext','text','mediumtext','longtext','json','binary','varbinary','blob','mediumblob','longblob')`,
  );
  let text = '';
  for (const { t, c } of columns) {
    const rows = await sql.query<Record<string, unknown>>(
      `SELECT \`${c}\` AS v FROM \`${t}\` WHERE \`${c}\` IS NOT NULL`,
    );
    for (const r of rows) text += `${Buffer.isBuffer(r.v) ? r.v.toString('utf8') : String(r.v)}\n`;
  }
  return { text, columns: columns.length };
}

describe('personal data at rest', () => {
  let gw: TestGateway;
  let fake: FakeOpenAI;
  let sql: RawSql;
  let agent: string;
  let approver: string;
  let auditor: string;

  beforeAll(async () => {
    fake = await startFakeOpenAI((body) => {
      if (questionOf(body).startsWith('委托')) {
        const results = toolResultsOf(body);
        return results.length
          ? say(`lead: ${JSON.stringify(results[0])}`)
          : {
              toolCalls: [
                {
                  id: 'call_d',
                  name: 'delegate_to_care_desk',
                  arguments: JSON.stringify({ task: `投诉：客户 ${PLANTED.phone}` }),
                },
              ],
              usage: { inputTokens: 10, outputTokens: 5 },
              finishReason: 'tool_calls',
            };
      }
      if (!questionOf(body).startsWith('投诉')) return say('好的');
      return toolResultsOf(body).length
        ? say(`已登记，客户电话 ${PLANTED.phone}，邮箱 ${PLANTED.email}`)
        : {
            text: `先登记 ${PLANTED.email}`,
            toolCalls: [{ id: 'call_0', name: 'file_complaint', arguments: JSON.stringify(CUSTOMER) }],
            usage: { inputTokens: 10, outputTokens: 5 },
            finishReason: 'tool_calls',
          };
    });
    gw = await startTestGateway({
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir({ care: CARE_YAML }),
        TOOLGATE_MODEL_BASE_URL: fake.url,
        TOOLGATE_MODEL_API_KEY: 'sk-test',
        TOOLGATE_MODEL: 'default/scripted',
      },
      imports: [PiiToolsModule],
    });
    sql = await openRawSql(gw.db);
    agent = await gw.createKey('agent', 'care');
    approver = await gw.createKey('approver', 'care');
    auditor = await gw.createKey('auditor', 'care');
  });
  afterAll(async () => {
    await sql?.close();
    await gw?.close();
    await fake?.close();
  });

  const invoke = (tool: string, input: unknown, headers?: Record<string, string>) =>
    gw.api('POST', `/v1/agents/care_desk/tools/${tool}/invoke`, { key: agent, body: { input }, headers });
  const callOf = async (callId: string) =>
    (await gw.api('GET', `/v1/calls/${callId}`, { key: agent })).body.data;

  it('keeps no planted value anywhere once the calls ended, however they ended', async () => {
    // ok, and the caller gets its data as it is.
    const ok = await invoke('file_complaint', CUSTOMER);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ handler: PLANTED.name, contact: { phone: PLANTED.phone } });
    // A tool error whose text names the customer (the issue's `服务 客户 138… 投诉 …不存在`).
    const failed = await invoke('file_complaint', { ...CUSTOMER, fail: true });
    expect(failed.body.code).toBe('UPSTREAM_ERROR');
    expect(failed.body.error).toContain(PLANTED.phone);
    // Replayed answers are stored too.
    const once = await invoke('file_complaint', CUSTOMER, { 'idempotency-key': 'complaint-1' });
    expect(once.status).toBe(200);
    // Refused by a person.
    const refused = await invoke('close_account', CUSTOMER);
    expect(refused.status).toBe(202);
    const denied = await gw.api('POST', `/v1/approvals/${refused.body.approvalId}/deny`, {
      key: approver,
      body: { comment: '不符合销户条件' },
    });
    expect(denied.status).toBe(200);
    // Parked, then approved: its raw input must exist until it ran (what runs is what was approved).
    const parked = await invoke('close_account', CUSTOMER);
    expect(parked.status).toBe(202);
    const approved = await gw.api('POST', `/v1/approvals/${parked.body.approvalId}/approve`, {
      key: approver,
      body: {},
    });
    expect(approved.status).toBe(200);
    await waitFor(async () => (await callOf(parked.body.callId)).status === 'succeeded', {
      what: 'the approved call to run',
    });
    // An agent run that calls the tool with the data and answers with it.
    const run = await gw.api('POST', '/v1/agents/care_desk/runs', {
      key: agent,
      body: { input: `投诉：客户 ${PLANTED.phone}，身份证 ${PLANTED.idNumber}，卡 ${PLANTED.bankCard}` },
    });
    expect(run.status).toBe(200);
    expect(run.body.data.status).toBe('completed');
    expect(run.body.data.output).toContain(PLANTED.phone);

    // A sub-agent's run: its answer, raw, is what the parent's model reads next — it is kept
    // (sealed) until the run at the top ended, then both are stored redacted.
    const lead = await gw.api('POST', '/v1/agents/care_lead/runs', {
      key: agent,
      body: { input: '委托：处理投诉' },
    });
    expect(lead.status).toBe(200);
    expect(lead.body.data.status).toBe('completed');
    expect(lead.body.data.output).toContain(PLANTED.phone);

    // The model's text streamed in pieces: a value split across two deltas is found by no grep, so
    // the run's stored deltas, put together, must not hold it either.
    const events = await fetch(`${gw.url}/v1/runs/${run.body.data.runId}/events`, {
      headers: { authorization: `Bearer ${agent}`, accept: 'text/event-stream' },
    });
    const deltas = (await events.text())
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)))
      .map((e) => (typeof e.data?.delta === 'string' ? e.data.delta : ''))
      .join('');
    expect(found(deltas)).toEqual([]);

    // What is stored is redacted, not emptied: the masks are there.
    const stored = await callOf(parked.body.callId);
    expect(stored.redacted).toBe(true);
    expect(stored.result.data).toMatchObject({
      handler: '张*',
      contact: { phone: '138****5678', email: 'z***@example.com' },
      idNumber: '[REDACTED]',
    });
    const failure = await callOf(failed.headers.get('x-call-id')!);
    expect(failure.result.error).toContain('138****5678');
    expect(failure.result.error).toContain('处理人 张*');
    const story = (await gw.api('GET', `/v1/audit/calls/${ok.headers.get('x-call-id')}`, { key: auditor }))
      .body.data;
    expect(JSON.stringify(story)).toContain('138****5678');
    expect(found(JSON.stringify(story))).toEqual([]);

    if (gw.db.kind === 'sqlite') {
      const path = gw.db.url.slice('sqlite:'.length);
      // The WAL holds what was written since the last checkpoint: the calls above, page by page.
      expect(existsSync(`${path}-wal`)).toBe(true);
      const wal = readFileSync(`${path}-wal`);
      expect(wal.length).toBeGreaterThan(0);
      expect(found(wal)).toEqual([]);
      expect(found(readFileSync(path))).toEqual([]);
      // The scan can see: masked forms are in the same files.
      expect(Buffer.concat([wal, readFileSync(path)]).includes(Buffer.from('138****5678'))).toBe(true);
    } else {
      const { text, columns } = await everyTextColumn(sql);
      expect(columns).toBeGreaterThan(50);
      expect(text).toContain('138****5678');
      expect(found(text)).toEqual([]);
    }
  });

  it('shows the classes: in exported schemas (x-toolgate-pi) and in the tool list', async () => {
    const list = await gw.api('GET', '/v1/agents/care_desk/tools', { key: agent });
    const complaint = list.body.data.find((t: any) => t.name === 'file_complaint');
    expect(complaint.personalInformation).toEqual(['personal', 'sensitive_personal']);
    expect(complaint.inputSchema.properties.customer['x-toolgate-pi']).toBe('personal');
    expect(complaint.inputSchema.properties.idNumber['x-toolgate-pi']).toBe('sensitive_personal');
    expect(complaint.inputSchema.properties.phone['x-toolgate-pi']).toBeUndefined();
    const close = list.body.data.find((t: any) => t.name === 'close_account');
    expect(close.outputSchema.properties.idNumber['x-toolgate-pi']).toBe('sensitive_personal');
    const openai = await gw.api('GET', '/v1/agents/care_desk/tools?format=openai', { key: agent });
    expect(JSON.stringify(openai.body.data)).toContain('"x-toolgate-pi":"sensitive_personal"');
  });

  it('stores a large input as its hash, size and head, in the trail and in the calls view', async () => {
    const note = `回电 ${PLANTED.phone} `.padEnd(100_000, '记');
    const big = await invoke('file_complaint', { ...CUSTOMER, note });
    expect(big.status).toBe(200);
    const story = (await gw.api('GET', `/v1/audit/calls/${big.headers.get('x-call-id')}`, { key: auditor }))
      .body.data;
    const started = story.events.find((e: any) => e.event === 'started');
    expect(started.input).toMatchObject({ capped: true, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(started.input.size).toBeGreaterThan(300_000);
    expect(started.input.head).toContain('138****5678');
    expect(Buffer.byteLength(started.input.head)).toBeLessThanOrEqual(4096);
    // The calls view is a projection of the trail, a moment behind it.
    const callId = big.headers.get('x-call-id');
    await waitFor(
      async () =>
        (await gw.api('GET', `/v1/audit/calls?callId=${callId}`, { key: auditor })).body.data.items[0]?.input
          ?.capped === true,
      { what: 'the calls view to show the capped input' },
    );
  });
});
