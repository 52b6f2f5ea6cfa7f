import { z } from 'zod';

/**
 * The name of an environment variable that holds a notification secret (robot token, signing key,
 * webhook secret). Only `TOOLGATE_NOTIFY_*` names: a tenant file cannot make the gateway send
 * another of its variables (the admin key, the database URL) to a robot.
 */
export const SECRET_ENV = z
  .string()
  .regex(/^TOOLGATE_NOTIFY_[A-Z0-9_]{1,96}$/, 'name an environment variable TOOLGATE_NOTIFY_<SOMETHING>');

export const CHANNEL_TYPES = ['webhook', 'dingtalk', 'feishu', 'feishu_app', 'wecom'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** A channel name: lower case, readable in the console and the delivery log. */
export const CHANNEL_NAME = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,63}$/, 'lower case letters, digits, - and _');

/**
 * One place approvals are announced. `url` is the non-secret part of the address; the secret part
 * (DingTalk `access_token`, Feishu hook id, WeCom `key`) comes from `tokenEnv`, the signing key from
 * `secretEnv`. Both are names of environment variables, never the values.
 */
export const channelSchema = z
  .strictObject({
    type: z.enum(CHANNEL_TYPES),
    url: z.url({ protocol: /^https?$/ }),
    tokenEnv: SECRET_ENV.optional(),
    secretEnv: SECRET_ENV.optional(),
    /** `feishu_app`: the app's id (not secret; its App Secret comes from `secretEnv`). */
    appId: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .optional(),
    /** `feishu_app`: the chat the app posts to (`chat_id`). */
    chatId: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,128}$/)
      .optional(),
    /** Shown in the console. */
    description: z.string().max(200).optional(),
  })
  .superRefine((c, ctx) => {
    // A Feishu app posts as itself, so its cards' buttons call back (a custom bot's cannot).
    if (c.type !== 'feishu_app') return;
    for (const key of ['appId', 'chatId', 'secretEnv'] as const)
      if (!c[key])
        ctx.addIssue({ code: 'custom', path: [key], message: `a feishu_app channel needs ${key}` });
  });
export type ChannelSettings = z.infer<typeof channelSchema>;

const RISK = z.enum(['L0', 'L1', 'L2', 'L3']);

/**
 * Which channels hear of which approvals: every given filter must match (an absent filter matches
 * all). All matching routes notify; an approval notifies each channel once.
 */
export const routeSchema = z.strictObject({
  channels: z.array(CHANNEL_NAME).min(1),
  risk: z.array(RISK).optional(),
  tools: z.array(z.string().min(1)).optional(),
  dataDomains: z.array(z.string().min(1)).optional(),
});
export type RouteSettings = z.infer<typeof routeSchema>;

/** A Feishu user allowed to decide from a card, as the Toolgate person it is. */
export const feishuUserSchema = z.strictObject({
  subject: z.string().min(1).max(128),
  name: z.string().max(128).optional(),
  email: z.string().max(254).optional(),
  /** The identity provider of `subject` (`feishu` unless the person signs in through OIDC). */
  provider: z
    .string()
    .regex(/^[a-z][a-z0-9_-]{0,31}$/)
    .default('feishu'),
  role: z.enum(['approver', 'tenant_admin']).default('approver'),
});
export type FeishuUser = z.infer<typeof feishuUserSchema>;

/** Deciding from Feishu cards: the app's callback keys and who may decide. */
export const feishuDecisionSchema = z.strictObject({
  /** The app's Encrypt Key: signs (and encrypts) every callback. Required: unsigned callbacks are refused. */
  encryptKeyEnv: SECRET_ENV,
  /** The app's Verification Token, compared with the token in each callback. */
  verificationTokenEnv: SECRET_ENV.optional(),
  /** By open_id (or user_id): the Feishu users that may decide, and as whom. */
  users: z.record(z.string().regex(/^[A-Za-z0-9_-]{1,128}$/), feishuUserSchema).default({}),
});
export type FeishuDecisionSettings = z.infer<typeof feishuDecisionSchema>;

/** The `notifications:` section of a tenant file. */
export const notificationSettingsSchema = z
  .strictObject({
    channels: z.record(CHANNEL_NAME, channelSchema).default({}),
    routes: z.array(routeSchema).default([]),
    /** Remind the routed channels this long before a pending approval expires (each once). */
    reminders: z.strictObject({ beforeExpiryMs: z.array(z.number().int().positive()).max(5) }).optional(),
    /** When an approval is about to expire and still pending, tell this channel too. */
    escalation: z
      .strictObject({ channel: CHANNEL_NAME, beforeExpiryMs: z.number().int().positive() })
      .optional(),
    feishu: feishuDecisionSchema.optional(),
  })
  .superRefine((s, ctx) => {
    const named = (name: string, path: (string | number)[]) => {
      if (!s.channels[name]) ctx.addIssue({ code: 'custom', path, message: `no channel named ${name}` });
    };
    s.routes.forEach((r, i) => r.channels.forEach((c, j) => named(c, ['routes', i, 'channels', j])));
    if (s.escalation) named(s.escalation.channel, ['escalation', 'channel']);
  });
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

/** Every environment variable a section names, with where. */
export function secretEnvNames(s: NotificationSettings): { path: (string | number)[]; name: string }[] {
  const out: { path: (string | number)[]; name: string }[] = [];
  for (const [name, c] of Object.entries(s.channels)) {
    if (c.tokenEnv) out.push({ path: ['channels', name, 'tokenEnv'], name: c.tokenEnv });
    if (c.secretEnv) out.push({ path: ['channels', name, 'secretEnv'], name: c.secretEnv });
  }
  if (s.feishu) {
    out.push({ path: ['feishu', 'encryptKeyEnv'], name: s.feishu.encryptKeyEnv });
    if (s.feishu.verificationTokenEnv)
      out.push({ path: ['feishu', 'verificationTokenEnv'], name: s.feishu.verificationTokenEnv });
  }
  return out;
}
