import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  makeConfigDir,
  startTestGateway,
  TEST_ADMIN_KEY,
  type ApiResponse,
  type TestGateway,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abortProbe, TestToolsModule } from './test-tools.js';

/** A tenant of its own, so the abort-aware test tools are bound nowhere else. */
const UMBRELLA_YAML = `
id: umbrella
name: Umbrella
agentTypes:
  edge_tests:
    tools:
      - await_abort
      - hold_receipt
      - build_report
      - noop
`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it is true; fails after `ms`. */
async function until(probe: () => boolean | Promise<boolean>, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await sleep(20);
  }
}

/** A raw HTTP/1.1 exchange: what the server wrote before it closed (or `ms` passed). */
function rawExchange(url: string, request: string | Buffer, ms = 3_000): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.end(request));
    const done = () => {
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', done);
    socket.on('error', done);
    socket.setTimeout(ms, done);
  });
}

/** The first response of a raw exchange: status, headers (lower-case names) and parsed body. */
function firstResponse(raw: string): { status: number; headers: Record<string, string>; body: any } {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  const length = Number(headers['content-length'] ?? NaN);
  const text = rest.join('\r\n\r\n');
  const bodyText = Number.isNaN(length) ? text : Buffer.from(text).subarray(0, length).toString();
  let body: unknown = bodyText;
  try {
    body = JSON.parse(bodyText);
  } catch {
    /* keep the text */
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

/** Asserts an error envelope with its status: readable text, a code, a next step, no stack trace. */
function expectEnvelope(
  res: { status: number; body: any; text?: string },
  status: number,
  code?: string,
): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toEqual(
    expect.objectContaining({
      error: expect.any(String),
      code: code ?? expect.any(String),
      suggestedAction: expect.any(String),
    }),
  );
  const text = res.text ?? JSON.stringify(res.body);
  expect(text).not.toMatch(/"stack"|\bat .*:\d+|statusCode/);
}

describe('the HTTP edges of the gateway', () => {
  let gw: TestGateway;
  let agent: string;
  let acmeAgent: string;

  beforeAll(async () => {
    const consoleDir = mkdtempSync(join(tmpdir(), 'toolgate-console-'));
    writeFileSync(
      join(consoleDir, 'index.html'),
      '<!doctype html><title>console</title><div id="root"></div>',
    );
    gw = await startTestGateway({
      env: {
        TOOLGATE_CONFIG_DIR: makeConfigDir({ umbrella: UMBRELLA_YAML }),
        TOOLGATE_CONSOLE_DIR: consoleDir,
      },
      imports: [TestToolsModule],
    });
    agent = await gw.createKey('agent', 'umbrella');
    acmeAgent = await gw.createKey('agent', 'acme');
  });
  afterAll(() => gw?.close());

  const invokePath = (tool: string) => `/v1/agents/edge_tests/tools/${tool}/invoke`;
  const expectHealthy = async () => {
    expect((await gw.api('GET', '/healthz', { key: null })).status).toBe(200);
    const noop = await gw.api('POST', invokePath('noop'), { key: agent, body: { input: {} } });
    expect(noop.body).toEqual({ data: { ok: true }, status: 'ok' });
  };
  const postRaw = (path: string, body: Buffer | string, key = agent) =>
    fetch(`${gw.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    }).then(async (res): Promise<ApiResponse> => {
      const text = await res.text();
      return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
    });

  it('answers an SSE invoke that fails before streaming with the envelope and its status', async () => {
    const sse = async (input: unknown, idempotencyKey: string) => {
      const res = await fetch(`${gw.url}${invokePath('build_report')}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${agent}`,
          'content-type': 'application/json',
          accept: 'text/event-stream',
          'idempotency-key': idempotencyKey,
        },
        body: JSON.stringify({ input }),
        // Today's failure is a hang: fail the test instead.
        signal: AbortSignal.timeout(5_000),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
    };
    const tooLong = await sse({ project: 'p' }, 'k'.repeat(201));
    expectEnvelope(tooLong, 400, 'INVALID_INPUT');
    expect(tooLong.headers.get('content-type')).toContain('application/json');
    expectEnvelope(await sse({ project: 'p' }, 'schlüssel'), 400, 'INVALID_INPUT');

    const key = `sse-conflict-${Date.now()}`;
    const first = await gw.api('POST', invokePath('build_report'), {
      key: agent,
      body: { input: { project: 'one' } },
      headers: { 'idempotency-key': key },
    });
    expect(first.body.status).toBe('ok');
    expectEnvelope(await sse({ project: 'two' }, key), 409, 'IDEMPOTENCY_CONFLICT');

    const streamed = await fetch(`${gw.url}${invokePath('build_report')}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${agent}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({ input: { project: 'three' } }),
      signal: AbortSignal.timeout(5_000),
    });
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    const events = await streamed.text();
    expect(events.startsWith('event: label\n')).toBe(true);
    expect(events).toContain('event: result\n');
    await expectHealthy();
  });

  it('aborts an L0 call whose client goes away, and runs an L1 call to its end with its result kept', async () => {
    const leave = async (tool: string, input: unknown, started: () => boolean) => {
      const client = new AbortController();
      const pending = fetch(`${gw.url}${invokePath(tool)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${agent}`, 'content-type': 'application/json' },
        body: JSON.stringify({ input }),
        signal: client.signal,
      }).catch(() => undefined);
      await until(started);
      client.abort();
      await pending;
    };
    const l0Before = { ...abortProbe };
    await leave('await_abort', {}, () => abortProbe.awaitAbortStarted > l0Before.awaitAbortStarted);
    await until(() => abortProbe.awaitAbortAborted > l0Before.awaitAbortAborted, 2_000);

    const receipt = `r-${Date.now()}`;
    const l1Before = { ...abortProbe };
    await leave(
      'hold_receipt',
      { receipt },
      () => abortProbe.holdReceiptStarted > l1Before.holdReceiptStarted,
    );
    await until(() => abortProbe.holdReceiptFinished > l1Before.holdReceiptFinished);
    expect(abortProbe.holdReceiptAborted).toBe(l1Before.holdReceiptAborted);

    const auditor = await gw.createKey('auditor', 'umbrella');
    let callId: string | undefined;
    await until(async () => {
      const events = await gw.api('GET', '/v1/audit/events?tool=hold_receipt&limit=50', { key: auditor });
      callId = events.body.data.items.find((e: any) => JSON.stringify(e.input).includes(receipt))?.callId;
      return callId !== undefined;
    });
    await until(async () => {
      const call = await gw.api('GET', `/v1/calls/${callId}`, { key: agent });
      return call.body.data?.status === 'succeeded';
    });
    const call = await gw.api('GET', `/v1/calls/${callId}`, { key: agent });
    expect(call.body.data.result).toEqual({ data: { held: receipt }, status: 'ok' });
    await expectHealthy();
  });

  it('does not replay the aborted answer of a client that left: the same Idempotency-Key runs again', async () => {
    const headers = {
      authorization: `Bearer ${agent}`,
      'content-type': 'application/json',
      'idempotency-key': `left-${Date.now()}`,
    };
    const before = { ...abortProbe };
    const client = new AbortController();
    const pending = fetch(`${gw.url}${invokePath('await_abort')}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ input: {} }),
      signal: client.signal,
    }).catch(() => undefined);
    await until(() => abortProbe.awaitAbortStarted > before.awaitAbortStarted);
    client.abort();
    await pending;
    await until(() => abortProbe.awaitAbortAborted > before.awaitAbortAborted, 2_000);
    const retry = fetch(`${gw.url}${invokePath('await_abort')}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ input: {} }),
      signal: AbortSignal.timeout(10_000),
    });
    await until(() => abortProbe.awaitAbortStarted > before.awaitAbortStarted + 1, 3_000);
    const answer = await retry;
    expect(answer.headers.get('idempotent-replayed')).toBeNull();
    expect(await answer.json()).toEqual({ data: { aborted: false }, status: 'ok' });
  });

  it("refuses an audit export of another tenant's trail with 403 before writing anything", async () => {
    const acmeAuditor = await gw.createKey('auditor', 'acme');
    for (const format of ['csv', 'jsonl']) {
      const foreign = await gw.api('GET', `/v1/audit/export?format=${format}&tenantId=globex`, {
        key: acmeAuditor,
      });
      expectEnvelope(foreign, 403, 'FORBIDDEN');
      expect(foreign.headers.get('content-disposition')).toBeNull();
    }
    const own = await gw.api('GET', '/v1/audit/export?format=jsonl&tenantId=acme', { key: acmeAuditor });
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toContain('application/x-ndjson');
    await expectHealthy();
  });

  it('answers a YAML export of an unknown or foreign tenant with a 404 envelope', async () => {
    const acmeAdmin = await gw.createKey('tenant_admin', 'acme');
    for (const [key, tenant] of [
      [undefined, 'nope'],
      [acmeAdmin, 'globex'],
      [acmeAdmin, 'nope'],
    ] as const) {
      const res = await gw.api('GET', `/v1/admin/tenants/${tenant}/export`, { key });
      expectEnvelope(res, 404, 'NOT_FOUND');
      expect(res.headers.get('content-type')).toContain('application/json');
    }
    const own = await gw.api('GET', '/v1/admin/tenants/acme/export', { key: acmeAdmin });
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toContain('application/yaml');
    await expectHealthy();
  });

  it("answers the errors Fastify and Node's HTTP parser raise with envelopes", async () => {
    const longParam = await gw.api('GET', `/v1/agents/${'a'.repeat(150)}/tools`, { key: agent });
    expectEnvelope(longParam, 414, 'INVALID_INPUT');
    expect(longParam.body.error).toContain('too long'); // in the gateway's language (en here)
    expectEnvelope(await gw.api('GET', '/v1/agents/%zz/tools', { key: agent }), 400, 'INVALID_INPUT');
    expectEnvelope(await gw.api('GET', '/v1/nothing-here', { key: agent }), 404, 'NOT_FOUND');
    // A path that exists, with a method it does not declare: 405 and what it allows.
    const wrongMethod = await gw.api('DELETE', '/healthz', { key: null });
    expectEnvelope(wrongMethod, 405, 'INVALID_INPUT');
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD');

    const host = new URL(gw.url).host;
    const exchange = async (head: string, body = '') =>
      firstResponse(await rawExchange(gw.url, `${head.replaceAll('\n', '\r\n')}\r\n\r\n${body}`));
    const invokeHead = `POST ${invokePath('noop')} HTTP/1.1\nhost: ${host}\nauthorization: Bearer ${agent}\ncontent-type: application/json`;
    const cases = [
      // A body shorter than its Content-Length, then the client stops sending.
      { res: await exchange(`${invokeHead}\ncontent-length: 50`, '{"input":{}}'), status: 400 },
      // Both framings at once: the request smuggling shape.
      {
        res: await exchange(
          `${invokeHead}\ncontent-length: 12\ntransfer-encoding: chunked`,
          'c\r\n{"input":{}}\r\n0\r\n\r\n',
        ),
        status: 400,
      },
      {
        res: await exchange(`${invokeHead}\ntransfer-encoding: chunked`, 'zz\r\n{}\r\n0\r\n\r\n'),
        status: 400,
      },
      { res: await exchange(`${invokeHead}\ntransfer-encoding: gzip`, '{"input":{}}'), status: 400 },
      { res: await exchange('CONNECT example.com:443 HTTP/1.1\nhost: example.com:443'), status: 405 },
      { res: await exchange(`BREW /healthz HTTP/1.1\nhost: ${host}`), status: 400 },
      { res: await exchange(`GET /healthz HTTP/1.1\nhost: ${host}\nbad header: x`), status: 400 },
      {
        res: await exchange(`GET /healthz HTTP/1.1\nhost: ${host}\nx-big: ${'a'.repeat(20_000)}`),
        status: 431,
      },
    ];
    for (const { res, status } of cases) {
      expectEnvelope(res, status);
      expect(res.headers['content-type']).toContain('application/json');
    }
    await expectHealthy();
  });

  it('refuses invalid UTF-8 and duplicate keys in JSON bodies with 400 INVALID_INPUT', async () => {
    const invalidUtf8 = Buffer.concat([
      Buffer.from('{"input":{"service":"payment-api'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}}'),
    ]);
    for (const body of [
      invalidUtf8,
      '{"input":{},"input":{}}',
      '{"input":{"service":"payment-api","service":"search-api"}}',
      '{"input":{"service":"payment-api","\\u0073ervice":"search-api"}}',
    ]) {
      const res = await postRaw('/v1/agents/ops_assistant/tools/get_service_status/invoke', body, acmeAgent);
      expectEnvelope(res, 400, 'INVALID_INPUT');
    }
    const dupRole = await postRaw(
      '/v1/admin/keys',
      '{"name":"shadow","role":"platform_admin","role":"agent","tenantId":"acme"}',
      TEST_ADMIN_KEY,
    );
    expectEnvelope(dupRole, 400, 'INVALID_INPUT');
    // Still refused as before: prototype keys, an empty body, a body over the limit.
    expectEnvelope(
      await postRaw(invokePath('noop'), '{"input":{},"__proto__":{"x":1}}'),
      400,
      'INVALID_INPUT',
    );
    expectEnvelope(
      await postRaw(invokePath('noop'), '{"input":{"constructor":{"prototype":{"x":1}}}}'),
      400,
      'INVALID_INPUT',
    );
    expectEnvelope(await postRaw(invokePath('noop'), ''), 400, 'INVALID_INPUT');
    expectEnvelope(await postRaw(invokePath('noop'), '{"input":'), 400, 'INVALID_INPUT');
    expectEnvelope(
      await postRaw(invokePath('noop'), JSON.stringify({ input: {}, pad: 'x'.repeat(1_100_000) })),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    // Valid non-ASCII text is fine, and so are equal keys in different objects.
    const text = await postRaw(invokePath('build_report'), Buffer.from('{"input":{"project":"报告 ✓"}}'));
    expect(text.body).toMatchObject({ status: 'ok', data: { project: '报告 ✓' } });
    const siblings = await postRaw(
      '/v1/admin/tenants/acme/agents/ops_assistant/bindings/preview',
      '{"tools":[{"name":"get_service_status"},{"name":"read_logs"}]}',
      TEST_ADMIN_KEY,
    );
    expect(siblings.status).toBe(200);
    await expectHealthy();
  });

  it('refuses to deny an approval with a blank comment', async () => {
    const approver = await gw.createKey('approver', 'acme');
    const parked = await gw.api('POST', '/v1/agents/ops_assistant/tools/restart_service/invoke', {
      key: acmeAgent,
      body: { input: { service: 'payment-api', reason: 'memory leak after the rollout' } },
    });
    expect(parked.status).toBe(202);
    const { approvalId } = parked.body;
    for (const comment of ['   ', '\n\t ', '\u3000']) {
      const res = await gw.api('POST', `/v1/approvals/${approvalId}/deny`, {
        key: approver,
        body: { comment },
      });
      expectEnvelope(res, 400, 'INVALID_INPUT');
    }
    expect((await gw.api('GET', `/v1/approvals/${approvalId}`, { key: approver })).body.data.status).toBe(
      'pending',
    );
    const denied = await gw.api('POST', `/v1/approvals/${approvalId}/deny`, {
      key: approver,
      body: { comment: 'not during business hours' },
    });
    expect(denied.status).toBe(200);
    await expectHealthy();
  });

  it('sends a strict CSP on the console and nosniff, DENY framing and no referrer on every response', async () => {
    const consolePage = await gw.api('GET', '/console/', { key: null });
    expect(consolePage.status).toBe(200);
    const csp = consolePage.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      "object-src 'none'",
    ])
      expect(csp).toContain(directive);
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    const byName = await gw.api('GET', '/console/index.html', { key: null });
    expect(byName.status).toBe(200);
    expect(byName.headers.get('content-security-policy')).toBe(csp);

    const answers = [
      consolePage,
      await gw.api('GET', '/healthz', { key: null }),
      await gw.api('GET', '/v1/agents', { key: null }),
      await gw.api('GET', '/v1/nothing-here', { key: null }),
      await gw.api('POST', invokePath('noop'), { key: agent, body: { input: {} } }),
      await gw.api('GET', `/v1/agents/${'a'.repeat(150)}/tools`, { key: agent }),
    ];
    for (const res of answers) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    }
    const docs = await gw.api('GET', '/docs', { key: null });
    expect(docs.status).toBe(200);
    expect(docs.text).toContain('swagger-ui');
    expect(docs.headers.get('content-security-policy') ?? '').not.toContain("script-src 'self';");
    await expectHealthy();
  });

  // Found while fuzzing: on controller routes the 413 said "exceeds ? bytes".
  it('names the body limit in the 413 of every route', async () => {
    const body = JSON.stringify({ comment: 'x'.repeat(1_100_000) });
    for (const [path, key] of [
      ['/v1/approvals/apr_x/deny', TEST_ADMIN_KEY],
      [invokePath('noop'), agent],
    ] as const) {
      const res = await postRaw(path, body, key);
      expectEnvelope(res, 413, 'PAYLOAD_TOO_LARGE');
      expect(res.body.error).toContain(String(gw.settings.server.bodyLimitBytes));
    }
    await expectHealthy();
  });

  // Found by the fuzz suite (api-fuzz.e2e-spec.ts): successes carried no X-Request-Id at all.
  it('names every answer with its X-Request-Id: successes, streams, exports, files and refused requests', async () => {
    const given = { 'x-request-id': 'trace-7:ok' };
    const acmeAuditor = await gw.createKey('auditor', 'acme');
    const answers = [
      await gw.api('GET', '/healthz', { key: null, headers: given }),
      await gw.api('POST', invokePath('noop'), { key: agent, body: { input: {} }, headers: given }),
      await gw.api('GET', '/console/', { key: null, headers: given }),
      await gw.api('GET', '/v1/audit/export?format=jsonl', { key: acmeAuditor, headers: given }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toBe('trace-7:ok');
    }
    const streamed = await fetch(`${gw.url}${invokePath('build_report')}`, {
      method: 'POST',
      headers: {
        ...given,
        authorization: `Bearer ${agent}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({ input: { project: 'ids' } }),
      signal: AbortSignal.timeout(5_000),
    });
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    expect(streamed.headers.get('x-request-id')).toBe('trace-7:ok');
    await streamed.text();
    // Refused by Node's parser: no request exists to take an id from, a fresh one still names it.
    const host = new URL(gw.url).host;
    const refused = firstResponse(
      await rawExchange(gw.url, `BREW /healthz HTTP/1.1\r\nhost: ${host}\r\n\r\n`),
    );
    expect(refused.status).toBe(400);
    expect(refused.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    await expectHealthy();
  });

  // Found by the fuzz suite: the envelope after the head of a HEAD answer read as a broken next response.
  it('answers a HEAD request the parser refuses with a head and no body', async () => {
    const host = new URL(gw.url).host;
    const request = (method: string) =>
      Buffer.concat([
        Buffer.from(`${method} /`),
        Buffer.from('日本', 'utf8'), // raw UTF-8 in the request line: Node's parser refuses it
        Buffer.from(` HTTP/1.1\r\nhost: ${host}\r\n\r\n`),
      ]);
    const head = await rawExchange(gw.url, request('HEAD'));
    const [headLines = '', ...rest] = head.split('\r\n\r\n');
    expect(headLines).toMatch(/^HTTP\/1\.1 400 /);
    expect(headLines.toLowerCase()).toContain('content-type: application/json');
    expect(rest.join('')).toBe('');
    expectEnvelope(firstResponse(await rawExchange(gw.url, request('GET'))), 400, 'INVALID_INPUT');
    await expectHealthy();
  });

  // Found by the fuzz suite: the e-mail pattern of the audit redaction backtracked quadratically, so
  // one L1 call with a long string held the event loop (64 kB: ~8 s; the 1 MiB a body may hold: ~30 min).
  it('redacts the long input of an audited call in linear time', async () => {
    for (const service of ['x'.repeat(64 * 1024), `a@${'a'.repeat(64 * 1024)}`]) {
      const started = performance.now();
      const res = await gw.api('POST', '/v1/agents/ops_assistant/tools/read_logs/invoke', {
        key: acmeAgent,
        body: { input: { service } },
      });
      expect(res.body.code).toBe('INVALID_INPUT');
      expect(performance.now() - started).toBeLessThan(2_000);
    }
    await expectHealthy();
  });

  // Found by the fuzz suite: a parser error of a request whose answer was already streaming wrote a
  // second, raw answer into the middle of the first (Node itself only closes the connection then).
  it('closes instead of writing an error into an answer already on the wire', async () => {
    const { hostname, port, host } = new URL(gw.url);
    // A GET handler does not wait for a body, so the 1.5 MB file is streaming while the parser still
    // waits for the 17 bytes the Content-Length promised; the client then closes its side.
    const raw = await new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      const socket = connect({ host: hostname, port: Number(port) }, () =>
        socket.write(
          `GET /docs/swagger-ui-bundle.js HTTP/1.1\r\nhost: ${host}\r\ncontent-length: 17\r\n\r\n`,
        ),
      );
      socket.once('data', () => socket.end());
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
      socket.on('error', () => undefined);
      socket.setTimeout(5_000, () => socket.destroy());
    });
    expect(raw.startsWith('HTTP/1.1 200 ')).toBe(true);
    expect(raw.slice(1)).not.toMatch(/HTTP\/1\.1 \d{3} /);
    await expectHealthy();
  });

  it('echoes a well-formed x-request-id and replaces anything else with a generated one', async () => {
    const idOf = async (id: string) =>
      (await gw.api('GET', '/v1/agents', { key: null, headers: { 'x-request-id': id } })).headers.get(
        'x-request-id',
      );
    expect(await idOf('trace-42:a.b_c')).toBe('trace-42:a.b_c');
    for (const hostile of [`<script>alert(1)</script>${'x'.repeat(6_000)}`, 'a'.repeat(129), 'a b', 'é']) {
      const echoed = await idOf(hostile);
      expect(echoed).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
      expect(echoed).not.toBe(hostile);
    }
    await expectHealthy();
  });
});
