import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ApprovalMessage } from './approval-message.js';
import { acceptedBy, channelRequest } from './channel-request.js';
import { scrubSecrets } from './channel-secrets.js';
import { dingtalkSign, feishuBotSign, toolgateSignature } from './signatures.js';

const message: ApprovalMessage = {
  kind: 'request',
  tenantId: 'acme',
  approvalId: 'apr_1',
  callId: 'call_1',
  tool: 'restart_service',
  riskLevel: 'L3',
  agentType: 'ops_assistant',
  input: { service: 'payment-api' },
  prompt: 'Restart payment-api',
  requestedBy: 'key_1',
  status: 'pending',
  expiresAt: '2026-12-01T00:00:00.000Z',
  link: 'https://tg.example/console/approvals/apr_1',
};
const NOW = new Date('2026-12-01T08:00:00.000Z');

describe('channel requests', () => {
  it('signs the generic webhook over timestamp.body with the channel secret', () => {
    const r = channelRequest(
      message,
      { type: 'webhook', url: 'https://hooks.example/x', secretEnv: 'X' },
      { secret: 's3cret' },
      'ntf_1',
      NOW,
    );
    const ts = r.headers['x-toolgate-timestamp'];
    expect(ts).toBe(String(NOW.getTime() / 1000));
    expect(r.headers['x-toolgate-signature']).toBe(
      `sha256=${createHmac('sha256', 's3cret').update(`${ts}.${r.body}`).digest('hex')}`,
    );
    expect(JSON.parse(r.body)).toMatchObject({
      event: 'approval.request',
      deliveryId: 'ntf_1',
      approval: { approvalId: 'apr_1' },
    });
  });

  it('puts DingTalk access_token, timestamp (ms) and the URL-encoded sign in the query', () => {
    const r = channelRequest(
      message,
      { type: 'dingtalk', url: 'https://oapi.dingtalk.com/robot/send' },
      { token: 'tok', secret: 'SECabc' },
      'n',
      NOW,
    );
    const url = new URL(r.url);
    expect(url.searchParams.get('access_token')).toBe('tok');
    expect(url.searchParams.get('timestamp')).toBe(String(NOW.getTime()));
    expect(url.searchParams.get('sign')).toBe(dingtalkSign('SECabc', String(NOW.getTime())));
    expect(r.url).toContain(`sign=${encodeURIComponent(dingtalkSign('SECabc', String(NOW.getTime())))}`);
    expect(JSON.parse(r.body).msgtype).toBe('markdown');
  });

  it('signs Feishu in the body with timestamp\\nsecret as the HMAC key over an empty string', () => {
    const r = channelRequest(
      message,
      { type: 'feishu', url: 'https://open.feishu.cn/open-apis/bot/v2/hook/' },
      { token: 'hook-id', secret: 'fs' },
      'n',
      NOW,
    );
    const body = JSON.parse(r.body);
    expect(r.url).toBe('https://open.feishu.cn/open-apis/bot/v2/hook/hook-id');
    expect(body.sign).toBe(createHmac('sha256', `${body.timestamp}\nfs`).update('').digest('base64'));
    expect(body.sign).toBe(feishuBotSign('fs', body.timestamp));
    expect(body.msg_type).toBe('interactive');
  });

  it('puts the WeCom key in the query', () => {
    const r = channelRequest(
      message,
      { type: 'wecom', url: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send' },
      { token: 'k-1' },
      'n',
      NOW,
    );
    expect(new URL(r.url).searchParams.get('key')).toBe('k-1');
    expect(JSON.parse(r.body).markdown.content).toContain(message.link);
  });

  it('reads the robots’ error codes inside HTTP 200', () => {
    expect(acceptedBy('dingtalk', 200, '{"errcode":0,"errmsg":"ok"}')).toBeNull();
    expect(acceptedBy('dingtalk', 200, '{"errcode":310000,"errmsg":"sign not match"}')).toContain('310000');
    expect(acceptedBy('feishu', 200, '{"code":19021,"msg":"sign match fail"}')).toContain('19021');
    expect(acceptedBy('wecom', 200, 'not json')).toContain('not JSON');
    expect(acceptedBy('webhook', 204, '')).toBeNull();
    expect(acceptedBy('webhook', 503, '')).toBe('HTTP 503');
  });

  it('scrubs secrets from errors', () => {
    expect(scrubSecrets('bad token tok-123 for key', { token: 'tok-123' })).toBe('bad token *** for key');
  });

  it('signs the documented recipes', () => {
    expect(toolgateSignature('k', '1', '{}')).toBe(
      `sha256=${createHmac('sha256', 'k').update('1.{}').digest('hex')}`,
    );
  });
});
