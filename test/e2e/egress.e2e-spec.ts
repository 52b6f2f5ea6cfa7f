import { makeConfigDir, openRawSql, startTestGateway, waitFor, type TestGateway } from '@toolgate/testing';
import { lookup } from 'node:dns/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMcpUpstream, type FakeMcpUpstream } from '../support/fake-mcp-upstream.js';
import { startFakeOpenApiService, type FakeOpenApiService } from '../support/fake-openapi-service.js';
import { HUGE_ANSWER_BYTES, startHugeAnswerPeer, type HugeAnswerPeer } from '../support/huge-answer-peer.js';
import { startRedirectingPeer, type RedirectingPeer } from '../support/redirecting-peer.js';
import { NotificationPeers } from './notification-peers.js';

const UPSTREAMS = '/v1/admin/tenants/acme/upstreams';
/** The most of an upstream's answer the gateway reads (CONTRACT.md, "Limits"). */
const MAX_ANSWER_BYTES = 10 * 1024 * 1024;
/**
 * What a peer may get into the socket beyond what the gateway reads before it hangs up: the
 * kernel's send and receive buffers on loopback and the streams' high-water marks.
 */
const SOCKET_SLACK_BYTES = 16 * 1024 * 1024;

/**
 * The company's DNS, as the lookup hook sees it (no real DNS here): names a tenant admin could
 * pick that lead inside. Other names (`localhost`) resolve as the system does.
 */
const NAMES: Record<string, string[]> = {
  'crm.internal.test': ['127.0.0.1'],
  'metadata.internal.test': ['169.254.169.254'],
  // One public record beside a private one: every address is checked, not the first.
  'mixed.example.test': ['93.184.216.34', '10.0.0.7'],
  // A partner's documents, allowed by name (allowHosts) although the name resolves to loopback.
  'docs.partner.test': ['127.0.0.1'],
};
const resolveHost = async (host: string) =>
  NAMES[host]
    ? NAMES[host].map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
    : lookup(host, { all: true });

const audited = async (gw: TestGateway) =>
  (await gw.api('GET', '/v1/audit/events?tenantId=acme&limit=200')).body.data.items.filter(
    (e: any) => e.event === 'upstream_changed' && e.details.kind === 'server_registration_failed',
  );

describe('the egress policy of a gateway that allows no private address (the default)', () => {
  let gw: TestGateway;
  let mcp: FakeMcpUpstream;
  let service: FakeOpenApiService;
  let peers: NotificationPeers;
  let acmeAdmin: string;
  let acmeAgent: string;

  beforeAll(async () => {
    mcp = await startFakeMcpUpstream({});
    service = await startFakeOpenApiService();
    peers = await new NotificationPeers().start();
    const notifications = `
notifications:
  channels:
    hook: { type: webhook, url: ${peers.url}/hook }
  routes:
    - { risk: [L3], channels: [hook] }
`;
    const acme = readFileSync('config/tenants/acme.yaml', 'utf8') + notifications;
    gw = await startTestGateway({
      env: {
        TOOLGATE_UPSTREAM_REFRESH_MS: '600000',
        TOOLGATE_CONFIG_DIR: makeConfigDir(
          { acme },
          'notifications:\n  pollMs: 200\n  retryBaseMs: 200\n  maxAttempts: 2\n',
        ),
      },
      egress: { allowHosts: ['docs.partner.test'], allowCidrs: [], resolveHost },
    });
    acmeAdmin = await gw.createKey('tenant_admin', 'acme');
    acmeAgent = await gw.createKey('agent', 'acme');
  });
  afterAll(async () => {
    await gw?.close();
    await mcp?.close();
    await service?.close();
    await peers?.close();
  });

  const register = (body: Record<string, unknown>) =>
    gw.api('POST', UPSTREAMS, { key: acmeAdmin, body: { timeoutMs: 2000, ...body } });

  it('refuses an MCP upstream on loopback, by address or by a name that resolves there, before any request reaches it', async () => {
    const port = new URL(mcp.url).port;
    const urls = [
      mcp.url,
      `http://localhost:${port}/mcp`,
      `http://crm.internal.test:${port}/mcp`,
      `http://[::ffff:127.0.0.1]:${port}/mcp`,
      `http://2130706433:${port}/mcp`,
      `http://[::1]:${port}/mcp`,
    ];
    for (const url of urls) {
      const res = await register({ name: 'crm', url });
      expect(res.status, `${url}: ${res.text}`).toBe(400);
      expect(res.body).toMatchObject({
        code: 'INVALID_INPUT',
        details: { failure: 'egress_denied', issues: [{ path: 'url' }] },
      });
      expect(res.body.error).toContain('egress');
    }
    expect(mcp.requests).toEqual([]);
    expect((await gw.api('GET', UPSTREAMS, { key: acmeAdmin })).body.data).toEqual([]);
    // Each refusal is in the trail, with the tenant admin who tried.
    const events = await audited(gw);
    expect(events.length).toBeGreaterThanOrEqual(urls.length);
    expect(events[0]).toMatchObject({
      actor: { type: 'api_key' },
      details: { upstream: 'crm', sourceKind: 'mcp', failure: 'egress_denied', code: 'INVALID_INPUT' },
    });
  });

  it('answers an open port, a closed port, the metadata address and a private name alike: nothing to probe', async () => {
    const answers = await Promise.all(
      [
        mcp.url,
        'http://127.0.0.1:9/mcp',
        'http://169.254.169.254/latest/meta-data/',
        'http://metadata.internal.test/latest/meta-data/',
        'http://10.0.0.1:3306/',
        'http://[fd00::1]/mcp',
        'http://100.64.0.1/mcp',
        'http://mixed.example.test/mcp',
      ].map(async (url) => {
        const res = await register({ name: 'probe', url });
        return { status: res.status, body: res.body };
      }),
    );
    expect(answers[0]!.status).toBe(400);
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(mcp.requests).toEqual([]);
  });

  it('refuses an OpenAPI document or baseUrl inside, at registration, fetching nothing', async () => {
    const partnerDocument = `http://docs.partner.test:${new URL(service.url).port}/openapi.json`;
    const inside = await register({ name: 'crm', kind: 'openapi', url: service.documentUrl });
    expect(inside.status).toBe(400);
    expect(inside.body).toMatchObject({ details: { failure: 'egress_denied', issues: [{ path: 'url' }] } });
    const base = await register({
      name: 'crm',
      kind: 'openapi',
      url: partnerDocument,
      baseUrl: `http://crm.internal.test:${new URL(service.url).port}/api`,
    });
    expect(base.status).toBe(400);
    expect(base.body).toMatchObject({ details: { failure: 'egress_denied', issues: [{ path: 'baseUrl' }] } });
    expect(service.hits()).toBe(0);
  });

  it('refuses a call whose stored baseUrl leads inside (a row from before the policy), sending nothing', async () => {
    const port = new URL(service.url).port;
    const allowed = await register({
      name: 'partner',
      kind: 'openapi',
      url: `http://docs.partner.test:${port}/openapi.json`,
    });
    expect(allowed.status, allowed.text).toBe(201);
    const sql = await openRawSql(gw.db);
    try {
      await sql.query(
        `UPDATE upstream_servers SET base_url = ? WHERE tenant_id = 'acme' AND name = 'partner'`,
        [`http://127.0.0.1:${port}/api`],
      );
    } finally {
      await sql.close();
    }
    const imported = await gw.api('POST', `${UPSTREAMS}/partner/import`, {
      key: acmeAdmin,
      body: { tools: [{ name: 'get_customer_by_id', riskLevel: 'L0' }], bindTo: ['ops_assistant'] },
    });
    expect(imported.status, imported.text).toBe(200);
    const res = await gw.api('POST', '/v1/agents/ops_assistant/tools/partner__get_customer_by_id/invoke', {
      key: acmeAgent,
      body: { input: { id: 'c1' } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 'UPSTREAM_ERROR', details: { failure: 'egress_denied' } });
    expect(res.text).not.toContain('Ada');
    expect(service.requests).toEqual([]);
  });

  it('sends no approval message to a channel inside: each attempt is refused and logged, nothing reaches the peer', async () => {
    const parked = await gw.api('POST', '/v1/agents/ops_assistant/tools/restart_service/invoke', {
      key: acmeAgent,
      body: { input: { service: 'payment-api', reason: 'memory leak' } },
    });
    expect(parked.status).toBe(202);
    const dead = await waitFor(
      async () =>
        (await gw.api('GET', '/v1/admin/tenants/acme/notifications/deliveries?status=dead')).body.data.find(
          (d: any) => d.approvalId === parked.body.approvalId,
        ),
      { timeoutMs: 15_000 },
    );
    expect(dead.lastError).toContain('egress');
    // Refused before anything was sent, and not retried: the channel must change first.
    expect(dead.log.map((a: any) => a.httpStatus)).toEqual([null]);
    expect(peers.received).toEqual([]);
  });
});

describe('redirects, the gateway itself and huge answers, on a gateway that allows 127.0.0.1 (as tests do)', () => {
  let gw: TestGateway;
  /** A private host: 127.0.0.2 is not in the allowed 127.0.0.1/32. */
  let inside: FakeMcpUpstream;
  let redirector: RedirectingPeer;
  let huge: HugeAnswerPeer;
  let acmeAdmin: string;
  let acmeAgent: string;

  beforeAll(async () => {
    inside = await startFakeMcpUpstream({}, { host: '127.0.0.2' });
    redirector = await startRedirectingPeer(new URL(inside.url).origin);
    huge = await startHugeAnswerPeer();
    const notifications = `
notifications:
  channels:
    hook: { type: webhook, url: ${huge.url}/hook }
    app: { type: feishu_app, url: ${huge.url}, appId: cli_huge, chatId: oc_1, secretEnv: TOOLGATE_NOTIFY_ACME__HUGE_APP_SECRET }
  routes:
    - { risk: [L3], channels: [hook, app] }
`;
    process.env.TOOLGATE_NOTIFY_ACME__HUGE_APP_SECRET = 'huge-app-secret-123456';
    const acme = readFileSync('config/tenants/acme.yaml', 'utf8') + notifications;
    gw = await startTestGateway({
      env: {
        TOOLGATE_UPSTREAM_REFRESH_MS: '600000',
        TOOLGATE_CONFIG_DIR: makeConfigDir({ acme }, 'notifications:\n  pollMs: 200\n  maxAttempts: 1\n'),
      },
    });
    acmeAdmin = await gw.createKey('tenant_admin', 'acme');
    acmeAgent = await gw.createKey('agent', 'acme');
  });
  afterAll(async () => {
    await gw?.close();
    await inside?.close();
    await redirector?.close();
    await huge?.close();
    delete process.env.TOOLGATE_NOTIFY_ACME__HUGE_APP_SECRET;
  });

  const register = (body: Record<string, unknown>) =>
    gw.api('POST', UPSTREAMS, { key: acmeAdmin, body: { timeoutMs: 3000, ...body } });

  it('refuses a redirect to a private address instead of following it, for MCP and OpenAPI sources', async () => {
    const viaMcp = await register({ name: 'moved', url: `${redirector.url}/mcp` });
    expect(viaMcp.status, viaMcp.text).toBe(400);
    expect(viaMcp.body).toMatchObject({ code: 'INVALID_INPUT', details: { failure: 'redirect' } });
    const viaDocument = await register({
      name: 'moved',
      kind: 'openapi',
      url: `${redirector.url}/openapi.json`,
    });
    expect(viaDocument.status, viaDocument.text).toBe(400);
    expect(viaDocument.body).toMatchObject({ code: 'INVALID_INPUT', details: { failure: 'redirect' } });
    expect(redirector.hits()).toBeGreaterThanOrEqual(2);
    expect(inside.requests).toEqual([]);
    // And the private host itself is refused: only 127.0.0.1 is allowed.
    const direct = await register({ name: 'moved', url: inside.url });
    expect(direct.body).toMatchObject({ details: { failure: 'egress_denied' } });
    expect(inside.requests).toEqual([]);
  });

  it('never quotes what an upstream answered in a failed registration (an internal page, a leaked credential)', async () => {
    const leaky = createServer((req, res) => {
      req.resume();
      res
        .writeHead(500, { 'content-type': 'text/plain' })
        .end('db_password=hunter2-internal-0123 host=db.internal');
    });
    await new Promise<void>((resolve) => leaky.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(leaky.address() as AddressInfo).port}`;
      for (const body of [
        { name: 'leaky', url: `${url}/mcp` },
        { name: 'leaky', kind: 'openapi', url: `${url}/openapi.json` },
      ]) {
        const res = await register(body);
        expect(res.text).not.toMatch(/hunter2|db\.internal|db_password/);
        expect(res.status, res.text).toBe(502);
        expect(res.body).toMatchObject({ code: 'UPSTREAM_ERROR', details: { failure: 'unreachable' } });
        expect(res.body.error).toContain('500');
      }
      const trail = JSON.stringify(await audited(gw));
      expect(trail).not.toMatch(/hunter2|db_password/);
    } finally {
      leaky.closeAllConnections();
      await new Promise((resolve) => leaky.close(resolve));
    }
  });

  it('never calls the gateway itself, although its address is allowed', async () => {
    const self = await register({ name: 'self', url: `${gw.url}/mcp/ops_assistant` });
    expect(self.status).toBe(400);
    expect(self.body).toMatchObject({ details: { failure: 'egress_denied' } });
    const selfDocument = await register({ name: 'self', kind: 'openapi', url: `${gw.url}/docs-json` });
    expect(selfDocument.body).toMatchObject({ details: { failure: 'egress_denied' } });
  });

  it('cuts an MCP answer off at the bound, with a clear error, having read no more than the bound', async () => {
    const list = await register({ name: 'biglist', url: `${huge.url}/mcp-huge-list` });
    expect(list.status, list.text).toBe(502);
    expect(list.body).toMatchObject({ code: 'UPSTREAM_ERROR', details: { failure: 'too_large' } });

    const registered = await register({ name: 'big', url: `${huge.url}/mcp`, timeoutMs: 20_000 });
    expect(registered.status, registered.text).toBe(201);
    const imported = await gw.api('POST', `${UPSTREAMS}/big/import`, {
      key: acmeAdmin,
      body: {
        tools: [
          { name: 'huge_json', riskLevel: 'L0' },
          { name: 'huge_sse', riskLevel: 'L0' },
        ],
        bindTo: ['ops_assistant'],
      },
    });
    expect(imported.status, imported.text).toBe(200);
    for (const tool of ['big__huge_json', 'big__huge_sse']) {
      const res = await gw.api('POST', `/v1/agents/ops_assistant/tools/${tool}/invoke`, {
        key: acmeAgent,
        body: { input: {} },
      });
      expect(res.status).toBe(200);
      expect(res.body, tool).toMatchObject({ code: 'UPSTREAM_ERROR', details: { failure: 'too_large' } });
      expect(res.body.error).toContain(String(MAX_ANSWER_BYTES));
    }
    await waitFor(() => huge.answers.every((a) => a.cutOff) || undefined, { timeoutMs: 10_000 });
    expect(huge.answers).toHaveLength(3);
    console.info(
      `huge MCP answers (bound ${MAX_ANSWER_BYTES} B): the peer got ${huge.answers.map((a) => `${a.path} ${a.bytesSent} B`).join(', ')} into the socket of ${HUGE_ANSWER_BYTES} B`,
    );
    for (const answer of huge.answers) {
      expect(answer.bytesSent).toBeLessThan(MAX_ANSWER_BYTES + SOCKET_SLACK_BYTES);
      expect(answer.bytesSent).toBeLessThan(HUGE_ANSWER_BYTES / 4);
    }
    expect((await gw.api('GET', '/healthz', { key: null })).status).toBe(200);
  });

  it('reads a webhook’s and a Feishu token endpoint’s answer only up to a bound', async () => {
    const before = huge.answers.length;
    const parked = await gw.api('POST', '/v1/agents/ops_assistant/tools/restart_service/invoke', {
      key: acmeAgent,
      body: { input: { service: 'payment-api', reason: 'memory leak' } },
    });
    expect(parked.status).toBe(202);
    const done = await waitFor(
      async () => {
        const all = (await gw.api('GET', '/v1/admin/tenants/acme/notifications/deliveries')).body.data.filter(
          (d: any) => d.approvalId === parked.body.approvalId && d.attempts > 0,
        );
        return all.length === 2 ? all : undefined;
      },
      { timeoutMs: 15_000 },
    );
    // The webhook accepted (2xx; its body is not needed); the token answer cannot be read whole.
    expect(done.find((d: any) => d.channel === 'hook').status).toBe('delivered');
    expect(done.find((d: any) => d.channel === 'app').lastError).toContain('too large');
    await waitFor(() => huge.answers.slice(before).every((a) => a.cutOff) || undefined, {
      timeoutMs: 10_000,
    });
    const answers = huge.answers.slice(before);
    expect(answers.map((a) => a.path).sort()).toEqual([
      '/hook',
      '/open-apis/auth/v3/tenant_access_token/internal',
    ]);
    for (const answer of answers) expect(answer.bytesSent).toBeLessThan(SOCKET_SLACK_BYTES);
  });
});
