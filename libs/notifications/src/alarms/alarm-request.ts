import type { ChannelRequest } from '../channels/channel-request.js';
import type { ChannelSecrets } from '../channels/channel-secrets.js';
import { dingtalkSign, feishuBotSign, toolgateSignature } from '../channels/signatures.js';
import type { AlarmChannel } from './platform-alarms.options.js';

/** An alarm of the platform, as every channel tells it: nothing here is secret. */
export interface PlatformAlarm {
  /** What went wrong, one word: `audit_write_failed`, `audit_chain_broken`. */
  readonly kind: string;
  readonly summary: string;
  readonly tenantId?: string;
  readonly at: Date;
  /** Alarms of this kind held back by the rate limit since the last one sent. */
  readonly suppressed: number;
  /** Which gateway raised it (its public address). */
  readonly gateway: string;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

const titleOf = (a: PlatformAlarm) => `[Toolgate] 平台告警 / Platform alarm: ${a.kind}`;

/** The alarm as a few lines of text, in both languages where the words are ours. */
export function alarmText(a: PlatformAlarm): string {
  return [
    titleOf(a),
    a.summary.slice(0, 500),
    ...(a.tenantId ? [`租户 / tenant: ${a.tenantId}`] : []),
    `时间 / at: ${a.at.toISOString()}`,
    `网关 / gateway: ${a.gateway}`,
    ...(a.suppressed
      ? [`此前 ${a.suppressed} 条同类告警未单独发送 / ${a.suppressed} more of this kind held back`]
      : []),
  ].join('\n');
}

function withQuery(base: string, params: Record<string, string | undefined>): string {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

/** The request that tells `alarm` on `channel` (the robots' plain text or markdown messages). */
export function alarmRequest(
  alarm: PlatformAlarm,
  channel: AlarmChannel,
  secrets: ChannelSecrets,
  deliveryId: string,
  now = new Date(),
): ChannelRequest {
  const text = alarmText(alarm);
  switch (channel.type) {
    case 'webhook': {
      const body = JSON.stringify({
        event: 'platform.alarm',
        deliveryId,
        alarm: { ...alarm, at: alarm.at.toISOString() },
      });
      const timestamp = String(Math.floor(now.getTime() / 1000));
      const headers: Record<string, string> = {
        ...JSON_HEADERS,
        'x-toolgate-delivery': deliveryId,
        'x-toolgate-timestamp': timestamp,
      };
      if (secrets.secret)
        headers['x-toolgate-signature'] = toolgateSignature(secrets.secret, timestamp, body);
      return { url: channel.url, headers, body };
    }
    case 'dingtalk': {
      const timestamp = String(now.getTime());
      const url = withQuery(channel.url, {
        access_token: secrets.token,
        ...(secrets.secret ? { timestamp, sign: dingtalkSign(secrets.secret, timestamp) } : {}),
      });
      const body = JSON.stringify({ msgtype: 'markdown', markdown: { title: titleOf(alarm), text } });
      return { url, headers: JSON_HEADERS, body };
    }
    case 'feishu': {
      const timestamp = String(Math.floor(now.getTime() / 1000));
      const base = channel.url.endsWith('/') ? channel.url.slice(0, -1) : channel.url;
      const body = JSON.stringify({
        ...(secrets.secret ? { timestamp, sign: feishuBotSign(secrets.secret, timestamp) } : {}),
        msg_type: 'text',
        content: { text },
      });
      return {
        url: secrets.token ? `${base}/${encodeURIComponent(secrets.token)}` : base,
        headers: JSON_HEADERS,
        body,
      };
    }
    case 'wecom':
      return {
        url: withQuery(channel.url, { key: secrets.token }),
        headers: JSON_HEADERS,
        body: JSON.stringify({ msgtype: 'markdown', markdown: { content: text } }),
      };
  }
}
