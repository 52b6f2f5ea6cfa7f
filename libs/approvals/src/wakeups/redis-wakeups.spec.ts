import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallRef } from '@toolgate/calls';
import type { ApprovalDecision } from '../approvals/approval-decisions.js';
import { parseDecisionMessage, parseHeldRef, RedisWakeups, WAKEUP_LEASE_MS } from './redis-wakeups.js';

// The real Redis of the test machine; each test has its own prefix, so parallel runs never cross.
const REDIS_URL = 'redis://127.0.0.1:6379';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(5);
  }
}

/** A bridge and what it heard. */
function gateway(prefix: string, instanceId: string, url = REDIS_URL) {
  const heard = {
    decided: [] as ApprovalDecision[],
    orphaned: [] as CallRef[],
    trouble: [] as (Error | null)[],
  };
  const bridge = new RedisWakeups(url, prefix, instanceId, {
    decided: (d) => heard.decided.push(d),
    orphaned: (refs) => heard.orphaned.push(...refs),
    trouble: (err) => heard.trouble.push(err),
  });
  return { bridge, heard };
}

/** Dies as a SIGKILLed process does: no more renewals, and the liveness key is left to run out. */
function kill(bridge: RedisWakeups): void {
  const inside = bridge as unknown as { timer: NodeJS.Timeout; commands: Redis; subscriber: Redis };
  clearInterval(inside.timer);
  inside.commands.disconnect();
  inside.subscriber.disconnect();
}

describe('RedisWakeups', () => {
  const open: RedisWakeups[] = [];
  const started = (g: ReturnType<typeof gateway>) => {
    g.bridge.start();
    open.push(g.bridge);
    return g;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((b) => b.close()));
  });

  it('carries a decision to the other gateways as ids, and not back to its sender', async () => {
    const prefix = `unit-${randomBytes(4).toString('hex')}`;
    const a = started(gateway(prefix, 'gw-a'));
    const b = started(gateway(prefix, 'gw-b'));
    const other = started(gateway(`${prefix}-other`, 'gw-c'));
    await Promise.all([a, b, other].map((g) => g.bridge.ready()));
    await a.bridge.announce({ tenantId: 'acme', approvalId: 'apr_1', callId: 'call_1' });
    await until(() => b.heard.decided.length === 1);
    expect(b.heard.decided).toEqual([{ tenantId: 'acme', approvalId: 'apr_1', callId: 'call_1' }]);
    await sleep(50);
    expect(a.heard.decided).toEqual([]);
    expect(other.heard.decided).toEqual([]); // another prefix is another cluster
  });

  it('gives the calls a dead gateway held to exactly one survivor, within the lease and a tick', async () => {
    const prefix = `unit-${randomBytes(4).toString('hex')}`;
    const a = started(gateway(prefix, 'gw-a'));
    const b = started(gateway(prefix, 'gw-b'));
    const c = started(gateway(prefix, 'gw-c'));
    await Promise.all([a, b, c].map((g) => g.bridge.ready()));
    await a.bridge.hold({ tenantId: 'acme', callId: 'call_1' });
    await a.bridge.hold({ tenantId: 'acme', callId: 'call_2' });
    await a.bridge.hold({ tenantId: 'acme', callId: 'call_3' });
    await a.bridge.release({ tenantId: 'acme', callId: 'call_3' }); // claimed: nobody takes it over
    await sleep(WAKEUP_LEASE_MS * 2);
    expect([...a.heard.orphaned, ...b.heard.orphaned, ...c.heard.orphaned]).toEqual([]); // alive: its own
    kill(a.bridge);
    // Nothing here polls: only the lapsed lease can hand the calls over (the wait is a hang guard).
    await until(() => b.heard.orphaned.length + c.heard.orphaned.length === 2, 30_000);
    await sleep(100);
    const taken = [...b.heard.orphaned, ...c.heard.orphaned].map((r) => r.callId).sort();
    expect(taken).toEqual(['call_1', 'call_2']);
  });

  it('takes back what its own instance id held before a restart', async () => {
    const prefix = `unit-${randomBytes(4).toString('hex')}`;
    const before = gateway(prefix, 'gw-a');
    before.bridge.start();
    await before.bridge.ready();
    await before.bridge.hold({ tenantId: 'acme', callId: 'call_1' });
    kill(before.bridge);
    const after = started(gateway(prefix, 'gw-a'));
    await until(() => after.heard.orphaned.length === 1);
    expect(after.heard.orphaned).toEqual([{ tenantId: 'acme', callId: 'call_1' }]);
  });

  it('fails soft when Redis is unreachable: nothing throws or waits, the trouble is told once', async () => {
    const down = started(gateway('unit-down', 'gw-a', 'redis://127.0.0.1:1'));
    const t0 = Date.now();
    await down.bridge.hold({ tenantId: 'acme', callId: 'call_1' });
    await down.bridge.release({ tenantId: 'acme', callId: 'call_1' });
    await down.bridge.announce({ tenantId: 'acme', approvalId: 'apr_1', callId: 'call_1' });
    expect(Date.now() - t0).toBeLessThan(1_000);
    await sleep(200);
    expect(down.heard.trouble.length).toBe(1);
    expect(down.heard.trouble[0]).toBeInstanceOf(Error);
  });
});

describe('wake-up messages', () => {
  it('reads ids only, and refuses anything else', () => {
    const ok = { tenantId: 'acme', approvalId: 'apr_1', callId: 'call_1', from: 'gw-a' };
    expect(parseDecisionMessage(JSON.stringify(ok))).toEqual(ok);
    expect(parseDecisionMessage(JSON.stringify({ ...ok, extra: 'ignored' }))).toEqual(ok);
    expect(parseDecisionMessage('not json')).toBeNull();
    expect(parseDecisionMessage('null')).toBeNull();
    expect(parseDecisionMessage(JSON.stringify({ ...ok, callId: 42 }))).toBeNull();
    expect(parseDecisionMessage(JSON.stringify({ ...ok, tenantId: '' }))).toBeNull();
    expect(parseDecisionMessage(JSON.stringify({ ...ok, approvalId: 'x'.repeat(201) }))).toBeNull();
    expect(parseHeldRef(JSON.stringify(['acme', 'call_1']))).toEqual({ tenantId: 'acme', callId: 'call_1' });
    expect(parseHeldRef(JSON.stringify(['acme']))).toBeNull();
    expect(parseHeldRef('{')).toBeNull();
  });
});
