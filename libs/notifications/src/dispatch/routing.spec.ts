import { describe, expect, it } from 'vitest';
import { notificationSettingsSchema } from '../config/notification-settings.schema.js';
import { occasionsAt, routedChannels } from './routing.js';

const settings = notificationSettingsSchema.parse({
  channels: {
    lark: { type: 'feishu', url: 'https://open.feishu.cn/x' },
    ding: { type: 'dingtalk', url: 'https://oapi.dingtalk.com/robot/send' },
    hook: { type: 'webhook', url: 'https://hooks.example/x' },
  },
  routes: [
    { risk: ['L3'], channels: ['lark', 'ding'] },
    { tools: ['refund'], channels: ['hook', 'lark'] },
    { dataDomains: ['finance'], channels: ['hook'] },
  ],
  reminders: { beforeExpiryMs: [600_000] },
  escalation: { channel: 'hook', beforeExpiryMs: 300_000 },
});
const now = new Date('2026-12-01T08:00:00Z');
const at = (msLeft: number) => new Date(now.getTime() + msLeft);

describe('routing', () => {
  it('sends L3 to two channels, each channel once across routes', () => {
    expect(
      routedChannels(settings, { riskLevel: 'L3', tool: 'refund', dataDomains: [], expiresAt: at(1) }),
    ).toEqual(['lark', 'ding', 'hook']);
    expect(
      routedChannels(settings, {
        riskLevel: 'L1',
        tool: 'read_logs',
        dataDomains: ['finance'],
        expiresAt: at(1),
      }),
    ).toEqual(['hook']);
    expect(
      routedChannels(settings, { riskLevel: 'L2', tool: 'x', dataDomains: [], expiresAt: at(1) }),
    ).toEqual([]);
  });

  it('adds reminders and the escalation as expiry nears, and nothing after it', () => {
    const a = { riskLevel: 'L3', tool: 'restart_service', dataDomains: [] };
    expect(occasionsAt(settings, { ...a, expiresAt: at(3_600_000) }, now).map((o) => o.occasion)).toEqual([
      'request',
    ]);
    expect(occasionsAt(settings, { ...a, expiresAt: at(500_000) }, now).map((o) => o.occasion)).toEqual([
      'request',
      'reminder:600000',
    ]);
    const late = occasionsAt(settings, { ...a, expiresAt: at(100_000) }, now);
    expect(late.map((o) => o.occasion)).toEqual(['request', 'reminder:600000', 'escalation']);
    expect(late[2].channels).toEqual(['hook']);
    expect(occasionsAt(settings, { ...a, expiresAt: at(-1) }, now)).toEqual([]);
  });

  it('refuses routes and escalations naming unknown channels, and secrets outside TOOLGATE_NOTIFY_*', () => {
    const bad = notificationSettingsSchema.safeParse({
      channels: { hook: { type: 'webhook', url: 'https://x.example', secretEnv: 'DATABASE_URL' } },
      routes: [{ channels: ['nope'] }],
      escalation: { channel: 'gone', beforeExpiryMs: 1 },
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path.join('.'))).toEqual(
      expect.arrayContaining(['channels.hook.secretEnv', 'routes.0.channels.0', 'escalation.channel']),
    );
  });
});
