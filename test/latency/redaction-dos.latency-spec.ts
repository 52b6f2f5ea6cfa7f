import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startTestGateway, testDatabaseKind, type TestGateway } from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** About 900 kB (UTF-8) per string: under the 1 MiB body limit with the JSON around it. */
const SIZE = 900 * 1024;
/** No request may hold the event loop longer than this, nor delay a health check more. */
const MAX_STALL_MS = 50;
/** No single stall may come near what a regex blow-up on 900 kB costs (seconds). */
const MAX_SINGLE_STALL_MS = 150;
const POLL_EVERY_MS = 10;
const PHONE = '13812345678';

function fill(unit: string, length = SIZE): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

// The worst cases of the old patterns (the e-mail one was quadratic) and of the new scanner
// (digit groups). The phone in front proves the redactor read each string into the trail.
const ADVERSARIAL: readonly string[] = [
  fill('a'),
  fill('a@'),
  `@${fill('b', SIZE - 1)}`,
  fill('a.'),
  `x@${fill('y.', SIZE - 2)}`,
  fill('1 '),
  fill('4-'),
  fill('１', SIZE / 3), // three UTF-8 bytes each
].map((text) => `${PHONE} ${text}`);
/** The same sizes in words: what any large body costs, whatever it holds. */
const PLAIN: readonly string[] = ADVERSARIAL.map((text) => fill('hello world ', Buffer.byteLength(text)));

/** What the event loop went through while some requests ran. */
interface Stalls {
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly polls: number;
  readonly slowestPollMs: number;
}

/** Runs `work` while polling `/healthz` every ~10 ms and sampling the event-loop delay. */
async function measure(url: string, work: () => Promise<void>): Promise<Stalls> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let finished = false;
  const done = work().finally(() => (finished = true));
  const latencies: number[] = [];
  while (!finished) {
    const started = performance.now();
    const res = await fetch(`${url}/healthz`);
    await res.text();
    expect(res.status).toBe(200);
    latencies.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, POLL_EVERY_MS));
  }
  await done;
  delay.disable();
  return {
    p50Ms: delay.percentile(50) / 1e6,
    p99Ms: delay.percentile(99) / 1e6,
    maxMs: delay.max / 1e6,
    polls: latencies.length,
    slowestPollMs: Math.max(...latencies),
  };
}

function report(name: string, s: Stalls): void {
  console.log(
    `redaction e2e ${testDatabaseKind()} ${name}: event-loop delay p50 ${s.p50Ms.toFixed(1)} ms, ` +
      `p99 ${s.p99Ms.toFixed(1)} ms, max ${s.maxMs.toFixed(1)} ms; ${s.polls} /healthz polls, ` +
      `slowest ${s.slowestPollMs.toFixed(1)} ms`,
  );
}

describe('redaction of adversarial input (ReDoS)', () => {
  let gw: TestGateway;
  let agent: string;
  let approver: string;
  let auditor: string;
  let sent = 0;

  beforeAll(async () => {
    gw = await startTestGateway();
    agent = await gw.createKey('agent', 'acme');
    approver = await gw.createKey('approver', 'acme');
    auditor = await gw.createKey('auditor', 'acme');
  });
  afterAll(() => gw?.close());

  const invoke = (tool: string, input: unknown) =>
    gw.api('POST', `/v1/agents/ops_assistant/tools/${tool}/invoke`, {
      key: agent,
      body: { input },
      headers: { 'idempotency-key': `dos-${sent++}` },
    });

  /** `read_logs` refuses a 900 kB service name; its raw input is redacted into the trail. */
  async function readLogs(texts: readonly string[], callIds: string[] = []): Promise<void> {
    for (const text of texts) {
      const refused = await invoke('read_logs', { service: text });
      expect(refused.body.code).toBe('INVALID_INPUT');
      callIds.push(refused.headers.get('x-call-id')!);
    }
  }

  /** `restart_service` takes a 900 kB reason and parks; its input is redacted for the approver. */
  async function restarts(texts: readonly string[], approvalIds: string[] = []): Promise<void> {
    for (const text of texts) {
      const parked = await invoke('restart_service', { service: 'payment-api', reason: text });
      expect(parked.status).toBe(202);
      approvalIds.push(parked.body.approvalId);
    }
  }

  /** Stalls with plain text, then with adversarial text, through one tool. */
  async function compare(
    tool: string,
    send: (texts: readonly string[], ids: string[]) => Promise<void>,
    ids: string[],
  ): Promise<void> {
    const plain = await measure(gw.url, () => send(PLAIN, []));
    const adversarial = await measure(gw.url, () => send(ADVERSARIAL, ids));
    report(`${tool}, plain text`, plain);
    report(`${tool}, adversarial`, adversarial);
    // What the content adds over plain text of the same size stays within the budget...
    expect(adversarial.maxMs - plain.maxMs).toBeLessThan(MAX_STALL_MS);
    expect(adversarial.slowestPollMs - plain.slowestPollMs).toBeLessThan(MAX_STALL_MS);
    // ...and so does the whole stall where the driver yields. better-sqlite3 runs every statement
    // on the event loop, so with SQLite a request is one stall: parsing, hashing and writing a
    // 900 kB body cost 20–60 ms there whatever it holds, before any redaction.
    // With MariaDB the loop stays free nearly all the time (p99), and no single stall comes near a
    // regex blow-up: a lone 55–80 ms maximum seen in full suite runs on this 2-core VM is a pause
    // of a process holding megabytes of strings, and plain text shows the same (see the diff above).
    if (testDatabaseKind() === 'mariadb') {
      expect(adversarial.p99Ms).toBeLessThan(MAX_STALL_MS);
      expect(adversarial.maxMs).toBeLessThan(MAX_SINGLE_STALL_MS);
      expect(adversarial.slowestPollMs).toBeLessThan(MAX_SINGLE_STALL_MS);
    }
  }

  // A shared machine can stall any process for a moment; a ReDoS fails every attempt.
  it('keeps the gateway responsive while it redacts 900 kB adversarial strings', { retry: 2 }, async () => {
    // Compile the paths first: what is measured is the cost of the input, not of a cold start.
    const warmUp = ADVERSARIAL.map((text) => text.slice(0, SIZE / 8));
    await readLogs(warmUp);
    await restarts(warmUp);

    const callIds: string[] = [];
    await compare('read_logs', readLogs, callIds);
    const approvalIds: string[] = [];
    await compare('restart_service', restarts, approvalIds);

    // The strings were read, not skipped: the phone in front of each is masked where it landed.
    const story = await gw.api('GET', `/v1/audit/calls/${callIds[0]}`, { key: auditor });
    const started = story.body.data.events.find((e: any) => e.event === 'started');
    expect(started.input.service.slice(0, 12)).toBe('138****5678 ');
    for (const approvalId of [approvalIds[0], approvalIds.at(-1)]) {
      const approval = await gw.api('GET', `/v1/approvals/${approvalId}`, { key: approver });
      expect(approval.body.data.input.reason.slice(0, 12)).toBe('138****5678 ');
      expect(approval.text).not.toContain(PHONE);
    }
  });
});
