import { startTestGateway, type TestGateway } from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLIENTS = 8;
const VERIFICATIONS = 30;

// Before ADR 009 verify read the head after scanning the events, and on MariaDB about one in seven
// verifications during traffic reported the events committed meanwhile as "newest events deleted".
describe('verification while the trail grows', () => {
  let gw: TestGateway;
  let agent: string;
  let auditor: string;

  beforeAll(async () => {
    gw = await startTestGateway();
    agent = await gw.createKey('agent', 'acme');
    auditor = await gw.createKey('auditor', 'acme');
  });
  afterAll(async () => {
    await gw?.close();
  });

  const call = () =>
    gw.api('POST', '/v1/agents/ops_assistant/tools/read_logs/invoke', {
      key: agent,
      body: { input: { service: 'search-api', limit: 3 } },
    });

  it('never reports tampering that did not happen, while calls are audited and checkpoints signed', async () => {
    // A chain long enough that one verification spans many commits of the writer.
    for (let i = 0; i < 20; i++) await Promise.all(Array.from({ length: CLIENTS }, call));
    let running = true;
    let calls = 0;
    const failedCalls: string[] = [];
    const clients = Array.from({ length: CLIENTS }, async () => {
      while (running) {
        const res = await call();
        if (res.body.status !== 'ok') failedCalls.push(res.text);
        calls++;
      }
    });
    const verdicts: { ok: boolean; problem?: string }[] = [];
    try {
      for (let i = 0; i < VERIFICATIONS; i++) {
        const cp = await gw.api('POST', '/v1/audit/checkpoints', { key: auditor, body: {} });
        expect(cp.status).toBe(201);
        verdicts.push((await gw.api('GET', '/v1/audit/verify', { key: auditor })).body.data);
      }
    } finally {
      running = false;
      await Promise.all(clients);
    }
    const alarms = verdicts.filter((v) => !v.ok);
    if (alarms.length)
      console.log(
        `${alarms.length}/${VERIFICATIONS} false alarms during ${calls} calls:`,
        alarms.map((a) => a.problem),
      );
    expect(failedCalls).toEqual([]);
    expect(calls).toBeGreaterThan(VERIFICATIONS);
    expect(alarms).toEqual([]);
  });
});
