import { makeConfigDir, startTestGateway, waitFor, type TestGateway } from '@toolgate/testing';
import { createCipheriv, createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feishuAppToken, NotificationPeers } from './notification-peers.js';

/** The tenants' notification secrets: only in the environment, never in a file, answer or log. */
const SECRETS = {
  TOOLGATE_NOTIFY_ACME__HOOK_SECRET: 'whsec-acme-0123456789',
  TOOLGATE_NOTIFY_ACME__DING_TOKEN: 'ding-token-acme-987654',
  TOOLGATE_NOTIFY_ACME__DING_SECRET: 'SECding-secret-acme-5555',
  TOOLGATE_NOTIFY_ACME__LARK_HOOK: 'lark-hook-acme-4444',
  TOOLGATE_NOTIFY_ACME__LARK_SECRET: 'lark-secret-acme-3333',
  TOOLGATE_NOTIFY_ACME__WECOM_KEY: 'wecom-key-acme-2222',
  TOOLGATE_NOTIFY_ACME__LARK_APP_SECRET: 'lark-app-secret-acme-6666',
  TOOLGATE_NOTIFY_ACME__FEISHU_ENCRYPT_KEY: 'feishu-encrypt-acme-1111',
  TOOLGATE_NOTIFY_ACME__FEISHU_TOKEN: 'feishu-verify-acme-0000',
  TOOLGATE_NOTIFY_GLOBEX__FEISHU_ENCRYPT_KEY: 'feishu-encrypt-globex-9999',
};
const PUBLIC_URL = 'https://toolgate.example.com';
const PHONE = '13812345678';

const notificationsOf = (peer: string) => `
notifications:
  channels:
    hook: { type: webhook, url: ${peer}/hook, secretEnv: TOOLGATE_NOTIFY_ACME__HOOK_SECRET }
    flaky: { type: webhook, url: ${peer}/flaky }
    ding:
      type: dingtalk
      url: ${peer}/robot/send
      tokenEnv: TOOLGATE_NOTIFY_ACME__DING_TOKEN
      secretEnv: TOOLGATE_NOTIFY_ACME__DING_SECRET
    lark:
      type: feishu
      url: ${peer}/open-apis/bot/v2/hook
      tokenEnv: TOOLGATE_NOTIFY_ACME__LARK_HOOK
      secretEnv: TOOLGATE_NOTIFY_ACME__LARK_SECRET
    wecom: { type: wecom, url: ${peer}/cgi-bin/webhook/send, tokenEnv: TOOLGATE_NOTIFY_ACME__WECOM_KEY }
    lark-app:
      type: feishu_app
      url: ${peer}
      appId: cli_toolgate
      chatId: oc_oncall
      secretEnv: TOOLGATE_NOTIFY_ACME__LARK_APP_SECRET
  routes:
    - { risk: [L3], channels: [lark, ding, lark-app] }
    - { tools: [restart_service], channels: [hook, wecom] }
    - { tools: [restart_service], risk: [L3], channels: [flaky] }
    - { risk: [L1], channels: [hook] }
  reminders: { beforeExpiryMs: [7000] }
  escalation: { channel: hook, beforeExpiryMs: 5000 }
  feishu:
    encryptKeyEnv: TOOLGATE_NOTIFY_ACME__FEISHU_ENCRYPT_KEY
    verificationTokenEnv: TOOLGATE_NOTIFY_ACME__FEISHU_TOKEN
    users:
      ou_lead: { subject: lead-1, name: On-call Lead, email: lead@acme.example, role: approver }
`;

const GLOBEX_NOTIFICATIONS = `
notifications:
  feishu:
    encryptKeyEnv: TOOLGATE_NOTIFY_GLOBEX__FEISHU_ENCRYPT_KEY
    users:
      ou_globex_lead: { subject: globex-lead, name: Globex Lead, role: approver }
`;

/** Encrypts a callback body as Feishu does (AES-256-CBC under SHA-256 of the Encrypt Key, IV first). */
function encrypt(plain: string, key: string): string {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', createHash('sha256').update(key).digest(), iv);
  return Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final()]).toString('base64');
}

/** A `card.action.trigger` callback as Feishu sends it: encrypted body, signed headers. */
function cardCallback(
  o: { openId: string; tenantId: string; approvalId: string; decision: 'approve' | 'deny' },
  keys: { encryptKey: string; token?: string },
  at = Date.now(),
) {
  const payload = {
    schema: '2.0',
    header: {
      event_id: `evt_${randomUUID()}`,
      token: keys.token ?? '',
      create_time: String(at * 1000),
      event_type: 'card.action.trigger',
      tenant_key: 'tk_acme',
      app_id: 'cli_toolgate',
    },
    event: {
      operator: { tenant_key: 'tk_acme', open_id: o.openId, user_id: `u_${o.openId}` },
      token: 'c-update-token',
      action: {
        tag: 'button',
        value: { toolgate: 'decide', tenantId: o.tenantId, approvalId: o.approvalId, decision: o.decision },
      },
      host: 'im_message',
      context: { open_message_id: 'om_1', open_chat_id: 'oc_1' },
    },
  };
  const raw = JSON.stringify({ encrypt: encrypt(JSON.stringify(payload), keys.encryptKey) });
  const timestamp = String(Math.floor(at / 1000));
  const nonce = randomUUID();
  const signature = createHash('sha256').update(`${timestamp}${nonce}${keys.encryptKey}${raw}`).digest('hex');
  return {
    raw,
    headers: {
      'content-type': 'application/json',
      'x-lark-request-timestamp': timestamp,
      'x-lark-request-nonce': nonce,
      'x-lark-signature': signature,
    },
  };
}

describe('approval notifications and decisions from Feishu', () => {
  let gw: TestGateway;
  let peers: NotificationPeers;
  let agent: string;
  let acmeAdmin: string;
  const acmeKeys = {
    encryptKey: SECRETS.TOOLGATE_NOTIFY_ACME__FEISHU_ENCRYPT_KEY,
    token: SECRETS.TOOLGATE_NOTIFY_ACME__FEISHU_TOKEN,
  };

  beforeAll(async () => {
    Object.assign(process.env, SECRETS);
    peers = await new NotificationPeers().start();
    peers.failNext('/flaky', 3);
    const acme = readFileSync('config/tenants/acme.yaml', 'utf8') + notificationsOf(peers.url);
    const globex = readFileSync('config/tenants/globex.yaml', 'utf8') + GLOBEX_NOTIFICATIONS;
    gw = await startTestGateway({
      env: {
        TOOLGATE_PUBLIC_URL: PUBLIC_URL,
        TOOLGATE_CONFIG_DIR: makeConfigDir(
          { acme, globex },
          'approvals:\n  expiryMs: 10000\n  pollMs: 500\nnotifications:\n  pollMs: 200\n  retryBaseMs: 200\n  maxAttempts: 3\n',
        ),
      },
    });
    agent = await gw.createKey('agent', 'acme');
    acmeAdmin = await gw.createKey('tenant_admin', 'acme');
  });
  afterAll(async () => {
    await gw?.close();
    await peers?.close();
    for (const k of Object.keys(SECRETS)) delete process.env[k];
  });

  const restart = async () => {
    const res = await gw.api('POST', '/v1/agents/ops_assistant/tools/restart_service/invoke', {
      key: agent,
      body: { input: { service: 'payment-api', reason: `内存泄漏需要重启，值班电话 ${PHONE}` } },
    });
    expect(res.status).toBe(202);
    return res.body as { approvalId: string; callId: string };
  };
  const approval = async (id: string) => (await gw.api('GET', `/v1/approvals/${id}`)).body.data;
  const callback = (tenantId: string, c: { raw: string; headers: Record<string, string> }) =>
    gw.api('POST', `/v1/integrations/feishu/${tenantId}/card`, {
      key: null,
      rawBody: c.raw,
      headers: c.headers,
    });

  let first: { approvalId: string; callId: string };

  it('announces an L3 approval on every routed channel, each in its documented format and signed', async () => {
    first = await restart();
    const { approvalId } = first;
    const link = `${PUBLIC_URL}/console/approvals/${approvalId}`;
    await waitFor(
      () =>
        ['/hook', '/robot/send', '/open-apis/bot/', '/open-apis/im/', '/cgi-bin/'].every(
          (p) => peers.about(p, approvalId).length,
        ),
      {
        what: 'the four channels',
      },
    );

    const [hook] = peers.about('/hook', approvalId);
    const ts = String(hook.headers['x-toolgate-timestamp']);
    const expected = createHmac('sha256', SECRETS.TOOLGATE_NOTIFY_ACME__HOOK_SECRET)
      .update(`${ts}.${hook.raw}`)
      .digest('hex');
    expect(hook.headers['x-toolgate-signature']).toBe(`sha256=${expected}`);
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(60);
    expect(hook.body).toMatchObject({
      event: 'approval.request',
      approval: {
        approvalId,
        tool: 'restart_service',
        riskLevel: 'L3',
        tenantId: 'acme',
        link,
        status: 'pending',
      },
    });
    expect(hook.body.approval.input.service).toBe('payment-api');
    expect(hook.body.approval.expiresAt).toEqual(expect.any(String));
    expect(hook.body.approval.requestedBy).toEqual(expect.any(String));

    const [ding] = peers.about('/robot/send', approvalId);
    const dingTs = ding.query.get('timestamp')!;
    expect(ding.query.get('access_token')).toBe(SECRETS.TOOLGATE_NOTIFY_ACME__DING_TOKEN);
    expect(ding.query.get('sign')).toBe(
      createHmac('sha256', SECRETS.TOOLGATE_NOTIFY_ACME__DING_SECRET)
        .update(`${dingTs}\n${SECRETS.TOOLGATE_NOTIFY_ACME__DING_SECRET}`)
        .digest('base64'),
    );
    expect(Math.abs(Number(dingTs) - Date.now())).toBeLessThan(60_000);
    expect(ding.body.msgtype).toBe('markdown');
    expect(ding.body.markdown.title).toContain('restart_service');
    expect(ding.body.markdown.text).toContain(link);

    const [lark] = peers.about('/open-apis/bot/', approvalId);
    expect(lark.path).toBe(`/open-apis/bot/v2/hook/${SECRETS.TOOLGATE_NOTIFY_ACME__LARK_HOOK}`);
    expect(lark.body.sign).toBe(
      createHmac('sha256', `${lark.body.timestamp}\n${SECRETS.TOOLGATE_NOTIFY_ACME__LARK_SECRET}`)
        .update('')
        .digest('base64'),
    );
    expect(lark.body.msg_type).toBe('interactive');
    const buttons = lark.body.card.elements.find((e: any) => e.tag === 'action').actions;
    expect(buttons.map((b: any) => b.value?.decision ?? b.url)).toEqual(['approve', 'deny', link]);
    expect(buttons[0].value).toEqual({
      toolgate: 'decide',
      tenantId: 'acme',
      approvalId,
      decision: 'approve',
    });

    // The Feishu app: a tenant access token from its App Secret, then the card through the IM API.
    const tokenRequest = peers.received.find(
      (m) => m.path === '/open-apis/auth/v3/tenant_access_token/internal',
    );
    expect(tokenRequest?.body).toEqual({
      app_id: 'cli_toolgate',
      app_secret: SECRETS.TOOLGATE_NOTIFY_ACME__LARK_APP_SECRET,
    });
    const [app] = peers.about('/open-apis/im/', approvalId);
    expect(app.path).toBe('/open-apis/im/v1/messages');
    expect(app.query.get('receive_id_type')).toBe('chat_id');
    expect(app.headers.authorization).toBe(
      `Bearer ${feishuAppToken('cli_toolgate', SECRETS.TOOLGATE_NOTIFY_ACME__LARK_APP_SECRET)}`,
    );
    expect(app.body).toMatchObject({ receive_id: 'oc_oncall', msg_type: 'interactive' });
    expect(JSON.parse(app.body.content)).toEqual(lark.body.card);

    const [wecom] = peers.about('/cgi-bin/', approvalId);
    expect(wecom.query.get('key')).toBe(SECRETS.TOOLGATE_NOTIFY_ACME__WECOM_KEY);
    expect(wecom.body.msgtype).toBe('markdown');
    expect(wecom.body.markdown.content).toContain(link);

    // The input as the audit trail keeps it: the phone number in the reason is masked everywhere.
    for (const m of peers.received) expect(m.raw).not.toContain(PHONE);
    // Each channel once per approval, however many routes name it.
    expect(peers.about('/hook', approvalId).filter((m) => m.body.event === 'approval.request')).toHaveLength(
      1,
    );
  });

  it('keeps a failing channel retried with backoff, then dead; a retry from the console delivers it', async () => {
    const dead = await waitFor(
      async () => {
        const res = await gw.api('GET', '/v1/admin/tenants/acme/notifications/deliveries?status=dead', {
          key: acmeAdmin,
        });
        return res.body.data.find((d: any) => d.channel === 'flaky' && d.approvalId === first.approvalId);
      },
      { timeoutMs: 10_000, what: 'the flaky delivery to be dead' },
    );
    expect(dead.log.map((a: any) => [a.status, a.httpStatus])).toEqual([
      ['failed', 500],
      ['failed', 500],
      ['failed', 500],
    ]);
    expect(dead.lastError).toBe('HTTP 500');
    const gaps = dead.log
      .slice(1)
      .map((a: any, i: number) => Date.parse(a.attemptedAt) - Date.parse(dead.log[i].attemptedAt));
    // Exponential backoff: retryBaseMs (200) before the second attempt, twice that before the third
    // (the sends themselves ride the 200 ms poll, so only lower bounds hold).
    expect(gaps[0]).toBeGreaterThanOrEqual(190);
    expect(gaps[1]).toBeGreaterThanOrEqual(390);

    const retried = await gw.api('POST', `/v1/admin/tenants/acme/notifications/deliveries/${dead.id}/retry`, {
      key: acmeAdmin,
    });
    expect(retried.status).toBe(200);
    const delivered = await waitFor(async () => {
      const res = await gw.api('GET', '/v1/admin/tenants/acme/notifications/deliveries?status=delivered', {
        key: acmeAdmin,
      });
      return res.body.data.find((d: any) => d.id === dead.id);
    });
    expect(delivered.log.map((a: any) => a.status)).toEqual(['failed', 'failed', 'failed', 'ok']);
    // Delivered once (a reminder may follow on a slow machine: it is another message).
    expect(
      peers.about('/flaky', first.approvalId).filter((m) => m.body.event === 'approval.request'),
    ).toHaveLength(1);
    // Only dead letters can be retried, and only the tenant's own.
    expect(
      (
        await gw.api('POST', `/v1/admin/tenants/acme/notifications/deliveries/${dead.id}/retry`, {
          key: acmeAdmin,
        })
      ).status,
    ).toBe(404);
    const globexAdmin = await gw.createKey('tenant_admin', 'globex');
    expect(
      (await gw.api('GET', '/v1/admin/tenants/acme/notifications/deliveries', { key: globexAdmin })).status,
    ).toBe(404);
  });

  it('decides from a correctly signed Feishu card callback, as the mapped person, and answers the updated card', async () => {
    const c = cardCallback(
      { openId: 'ou_lead', tenantId: 'acme', approvalId: first.approvalId, decision: 'approve' },
      acmeKeys,
    );
    const res = await callback('acme', c);
    expect(res.status).toBe(200);
    expect(res.body.toast).toMatchObject({ type: 'success' });
    expect(res.body.toast.content).toContain('On-call Lead');
    expect(res.body.card.type).toBe('raw');
    expect(JSON.stringify(res.body.card.data)).toContain('On-call Lead');
    expect(res.body.card.data.elements.some((e: any) => e.tag === 'action')).toBe(false);

    const a = await approval(first.approvalId);
    expect(a.status).toBe('approved');
    expect(a.decisions).toEqual([
      expect.objectContaining({ approverId: 'feishu:lead-1', decision: 'approve' }),
    ]);
    const call = (await gw.api('GET', `/v1/calls/${first.callId}`, { key: agent })).body.data;
    expect(call.status).toBe('succeeded');
    const story = (await gw.api('GET', `/v1/audit/calls/${first.callId}`)).body.data;
    const decided = story.events.find((e: any) => e.event === 'approval_decided');
    expect(decided.actor).toMatchObject({ type: 'user', id: 'feishu:lead-1' });

    // The same callback again is a replay: refused before anything is read.
    const replay = await callback('acme', c);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('UNAUTHENTICATED');
  });

  it('tells every channel the request went to what became of the call once it was decided', async () => {
    // `first` was approved in Feishu just before: its restart succeeded.
    const outcomeOf = (approvalId: string) =>
      waitFor(() => peers.about('/hook', approvalId).find((m) => m.body.event === 'approval.outcome'), {
        what: 'the outcome on the webhook',
      });
    const succeeded = await outcomeOf(first.approvalId);
    expect(succeeded.body.approval.outcome).toMatch(/^approved by .*On-call Lead.* · succeeded$/);
    const wecom = await waitFor(() =>
      peers
        .about('/cgi-bin/', first.approvalId)
        .find((m) => m.body.markdown.content.includes('结果 Outcome')),
    );
    expect(wecom.body.markdown.content).toContain('succeeded');
    const card = await waitFor(() =>
      peers
        .about('/open-apis/im/', first.approvalId)
        .map((m) => JSON.parse(m.body.content))
        .find((c) => c.header.title.content.includes('审批结果')),
    );
    expect(card.elements.some((e: any) => e.tag === 'action')).toBe(false);

    // An approved restart that failed says so, with the failure's code.
    const res = await gw.api('POST', '/v1/agents/ops_assistant/tools/restart_service/invoke', {
      key: agent,
      body: { input: { service: 'no-such-service', reason: '验证审批之后失败的结果也会通知到群里' } },
    });
    expect(res.status).toBe(202);
    const approver = await gw.createKey('approver', 'acme');
    expect(
      (await gw.api('POST', `/v1/approvals/${res.body.approvalId}/approve`, { key: approver, body: {} }))
        .status,
    ).toBe(200);
    const failed = await outcomeOf(res.body.approvalId);
    expect(failed.body.approval.outcome).toMatch(/^approved by .+ · failed: SERVICE_NOT_FOUND$/);
    // One outcome per channel, however many passes looked at it.
    expect(
      peers.about('/hook', first.approvalId).filter((m) => m.body.event === 'approval.outcome'),
    ).toHaveLength(1);
  });

  it('refuses bad signatures, stale timestamps, wrong tokens, unmapped users and other tenants, deciding nothing', async () => {
    const { approvalId } = await restart();
    const value = { openId: 'ou_lead', tenantId: 'acme', approvalId, decision: 'approve' as const };

    const forged = cardCallback(value, { ...acmeKeys, encryptKey: 'not-the-key' });
    expect((await callback('acme', forged)).status).toBe(401);
    const tampered = cardCallback(value, acmeKeys);
    tampered.headers['x-lark-signature'] = tampered.headers['x-lark-signature'].replace(/^./, (ch) =>
      ch === 'a' ? 'b' : 'a',
    );
    expect((await callback('acme', tampered)).status).toBe(401);
    const stale = cardCallback(value, acmeKeys, Date.now() - 10 * 60_000);
    expect((await callback('acme', stale)).status).toBe(401);
    const wrongToken = cardCallback(value, { ...acmeKeys, token: 'guess' });
    expect((await callback('acme', wrongToken)).status).toBe(401);
    const unsigned = cardCallback(value, acmeKeys);
    expect(
      (
        await gw.api('POST', '/v1/integrations/feishu/acme/card', {
          key: null,
          rawBody: unsigned.raw,
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(401);

    const unmapped = await callback('acme', cardCallback({ ...value, openId: 'ou_stranger' }, acmeKeys));
    expect(unmapped.status).toBe(200);
    expect(unmapped.body.toast.type).toBe('error');
    // Globex's approver, through acme's callback: not mapped here.
    const otherTenantsUser = await callback(
      'acme',
      cardCallback({ ...value, openId: 'ou_globex_lead' }, acmeKeys),
    );
    expect(otherTenantsUser.body.toast.type).toBe('error');
    // Globex's approver, through globex's own (correctly signed) callback, on acme's approval.
    const globexKeys = { encryptKey: SECRETS.TOOLGATE_NOTIFY_GLOBEX__FEISHU_ENCRYPT_KEY };
    const crossTenant = await callback(
      'globex',
      cardCallback({ ...value, openId: 'ou_globex_lead', tenantId: 'globex' }, globexKeys),
    );
    expect(crossTenant.status).toBe(200);
    expect(crossTenant.body.toast).toMatchObject({
      type: 'error',
      content: expect.stringContaining('NOT_FOUND'),
    });
    // A tenant without a Feishu integration has no callback.
    expect((await callback('initech-none', cardCallback(value, acmeKeys))).status).toBe(404);

    const a = await approval(approvalId);
    expect(a.status).toBe('pending');
    expect(a.decisions).toEqual([]);
  });

  it('reminds before expiry and escalates when an approval is about to expire', async () => {
    const { approvalId } = await restart();
    const reminder = await waitFor(
      () => peers.about('/cgi-bin/', approvalId).find((m) => m.body.markdown.content.includes('提醒')),
      {
        timeoutMs: 8_000,
        what: 'a reminder on the routed channels',
      },
    );
    expect(reminder.body.markdown.content).toContain(approvalId);
    const escalation = await waitFor(
      () => peers.about('/hook', approvalId).find((m) => m.body.event === 'approval.escalation'),
      {
        timeoutMs: 8_000,
        what: 'the escalation',
      },
    );
    expect(escalation.body.approval.status).toBe('pending');
  });

  it('answers 404 NOT_FOUND for a tenant that does not exist, as the sibling admin routes do', async () => {
    const routes = [
      ['GET', '/v1/admin/tenants/nope/notifications'],
      ['GET', '/v1/admin/tenants/nope/notifications/deliveries?status=dead'],
      ['POST', '/v1/admin/tenants/nope/notifications/deliveries/d1/retry'],
      ['GET', '/v1/admin/tenants/nope/upstreams'],
      ['GET', '/v1/admin/tenants/nope/bindings'],
    ] as const;
    for (const [method, path] of routes) {
      const res = await gw.api(method, path);
      expect([path, res.status, res.body.code]).toEqual([path, 404, 'NOT_FOUND']);
      expect(res.body.error).toContain('tenant nope');
    }
  });

  it('shows channels with secrets as variable names only, and no secret reaches an answer or the audit trail', async () => {
    const settings = await gw.api('GET', '/v1/admin/tenants/acme/notifications', { key: acmeAdmin });
    expect(settings.status).toBe(200);
    const ding = settings.body.data.channels.find((c: any) => c.name === 'ding');
    expect(ding).toMatchObject({
      type: 'dingtalk',
      tokenEnv: 'TOOLGATE_NOTIFY_ACME__DING_TOKEN',
      tokenSet: true,
      secretEnv: 'TOOLGATE_NOTIFY_ACME__DING_SECRET',
      secretSet: true,
    });
    expect(settings.body.data.feishu.users).toEqual([
      { feishuId: 'ou_lead', subject: 'feishu:lead-1', name: 'On-call Lead', role: 'approver' },
    ]);
    const answers = [
      settings.text,
      (await gw.api('GET', '/v1/admin/tenants/acme/notifications/deliveries?limit=500', { key: acmeAdmin }))
        .text,
      (await gw.api('GET', '/v1/audit/events?tenantId=acme&limit=500')).text,
      (await gw.api('GET', '/v1/admin/tenants/acme')).text,
    ];
    for (const text of answers)
      for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
  });
  it('leaves mapping a Feishu user to a person to platform admins; a tenant admin may only remove one', async () => {
    // A tenant admin mapping its own Feishu account to someone else would be a second approver.
    const exported = await gw.api('GET', '/v1/admin/tenants/acme/export', { key: acmeAdmin });
    const file = parseYaml(exported.text) as any;
    const users = file.notifications.feishu.users;
    users.ou_mallory = { subject: 'lead-1', provider: 'feishu', role: 'approver' };
    const importAs = (key: string | undefined, yaml: string) =>
      gw.api('POST', '/v1/admin/tenants/acme/import', { ...(key ? { key } : {}), body: { yaml } });
    const refused = await importAs(acmeAdmin, stringifyYaml(file));
    expect(refused.status).toBe(403);
    expect(refused.body.details.refused).toEqual([
      {
        path: 'settings.notifications.feishu.users.ou_mallory',
        reason: expect.stringContaining('platform-admin'),
      },
    ]);
    users.ou_lead = { ...users.ou_lead, subject: 'someone-else' };
    delete users.ou_mallory;
    const redirected = await importAs(acmeAdmin, stringifyYaml(file));
    expect(redirected.body.details.refused.map((r: { path: string }) => r.path)).toEqual([
      'settings.notifications.feishu.users.ou_lead',
    ]);
    const mapped = (await gw.api('GET', '/v1/admin/tenants/acme/notifications', { key: acmeAdmin })).body.data
      .feishu.users;
    expect(mapped.map((u: { feishuId: string; subject: string }) => [u.feishuId, u.subject])).toEqual([
      ['ou_lead', 'feishu:lead-1'],
    ]);

    // The platform admin may map; the tenant admin may then take the mapping away.
    users.ou_lead = parseYaml(exported.text).notifications.feishu.users.ou_lead;
    users.ou_second = { subject: 'second-2', provider: 'feishu', role: 'approver' };
    expect((await importAs(undefined, stringifyYaml(file))).status).toBe(200);
    delete users.ou_second;
    const removed = await importAs(acmeAdmin, stringifyYaml(file));
    expect(removed.status, removed.text).toBe(200);
  });
});
