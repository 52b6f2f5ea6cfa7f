import { approvalCard } from '../feishu/feishu-card.js';
import type { ChannelSettings } from '../config/notification-settings.schema.js';
import { markdownOf, titleOf, type ApprovalMessage } from './approval-message.js';
import type { ChannelSecrets } from './channel-secrets.js';
import { dingtalkSign, feishuBotSign, toolgateSignature } from './signatures.js';

/** One HTTP request to a channel. */
export interface ChannelRequest {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

function withQuery(base: string, params: Record<string, string | undefined>): string {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

/** `url` with the secret path segment (a Feishu hook id) appended. */
function withPath(base: string, segment: string | undefined): string {
  if (!segment) return base;
  return `${base.endsWith('/') ? base.slice(0, -1) : base}/${encodeURIComponent(segment)}`;
}

/** Toolgate's generic webhook: the message as JSON, signed when the channel has a secret. */
function webhook(
  m: ApprovalMessage,
  ch: ChannelSettings,
  s: ChannelSecrets,
  deliveryId: string,
  now: Date,
): ChannelRequest {
  const body = JSON.stringify({ event: `approval.${m.kind}`, deliveryId, approval: m });
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const headers: Record<string, string> = {
    ...JSON_HEADERS,
    'x-toolgate-delivery': deliveryId,
    'x-toolgate-timestamp': timestamp,
  };
  if (s.secret) headers['x-toolgate-signature'] = toolgateSignature(s.secret, timestamp, body);
  return { url: ch.url, headers, body };
}

/** DingTalk group robot: `markdown` message; `access_token`, `timestamp` (ms) and `sign` in the query. */
function dingtalk(m: ApprovalMessage, ch: ChannelSettings, s: ChannelSecrets, now: Date): ChannelRequest {
  const timestamp = String(now.getTime());
  const url = withQuery(ch.url, {
    access_token: s.token,
    ...(s.secret ? { timestamp, sign: dingtalkSign(s.secret, timestamp) } : {}),
  });
  const body = JSON.stringify({ msgtype: 'markdown', markdown: { title: titleOf(m), text: markdownOf(m) } });
  return { url, headers: JSON_HEADERS, body };
}

/** Feishu/Lark bot: an interactive card; `timestamp` (s) and `sign` in the body when signed. */
function feishu(m: ApprovalMessage, ch: ChannelSettings, s: ChannelSecrets, now: Date): ChannelRequest {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const body = JSON.stringify({
    ...(s.secret ? { timestamp, sign: feishuBotSign(s.secret, timestamp) } : {}),
    msg_type: 'interactive',
    card: approvalCard(m),
  });
  return { url: withPath(ch.url, s.token), headers: JSON_HEADERS, body };
}

/**
 * A Feishu app (bot capability) posting the card to a chat through the IM API
 * (`POST /open-apis/im/v1/messages?receive_id_type=chat_id`, `content` is the card as a JSON
 * string) with a tenant access token. Cards an app sends call back when clicked.
 */
function feishuApp(m: ApprovalMessage, ch: ChannelSettings, accessToken: string): ChannelRequest {
  const base = ch.url.endsWith('/') ? ch.url.slice(0, -1) : ch.url;
  return {
    url: `${base}/open-apis/im/v1/messages?receive_id_type=chat_id`,
    headers: { ...JSON_HEADERS, authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({
      receive_id: ch.chatId,
      msg_type: 'interactive',
      content: JSON.stringify(approvalCard(m)),
    }),
  };
}

/** WeCom group robot: `markdown` message; the robot's key in the query (WeCom robots are not signed). */
function wecom(m: ApprovalMessage, ch: ChannelSettings, s: ChannelSecrets): ChannelRequest {
  const body = JSON.stringify({ msgtype: 'markdown', markdown: { content: markdownOf(m) } });
  return { url: withQuery(ch.url, { key: s.token }), headers: JSON_HEADERS, body };
}

/** The request that announces `m` on `channel`. */
export function channelRequest(
  m: ApprovalMessage,
  channel: ChannelSettings,
  secrets: ChannelSecrets,
  deliveryId: string,
  now = new Date(),
  accessToken = '',
): ChannelRequest {
  switch (channel.type) {
    case 'webhook':
      return webhook(m, channel, secrets, deliveryId, now);
    case 'dingtalk':
      return dingtalk(m, channel, secrets, now);
    case 'feishu':
      return feishu(m, channel, secrets, now);
    case 'feishu_app':
      return feishuApp(m, channel, accessToken);
    case 'wecom':
      return wecom(m, channel, secrets);
  }
}

/**
 * Whether the peer accepted the message. The robots answer HTTP 200 with an error code in the
 * body (DingTalk and WeCom `errcode`, Feishu `code` or the older `StatusCode`); 0 is success.
 */
export function acceptedBy(type: ChannelSettings['type'], status: number, body: string): string | null {
  if (status < 200 || status >= 300) return `HTTP ${status}`;
  if (type === 'webhook') return null;
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return `HTTP ${status} with a body that is not JSON`;
  }
  const code = parsed.errcode ?? parsed.code ?? parsed.StatusCode;
  if (code === undefined || code === 0) return null;
  const message = parsed.errmsg ?? parsed.msg ?? parsed.StatusMessage;
  return `error ${String(code)}: ${String(message ?? '').slice(0, 200)}`;
}
