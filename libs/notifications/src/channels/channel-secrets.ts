import type { ChannelSettings } from '../config/notification-settings.schema.js';

/** A channel's secrets, read from the environment when a message is sent (never stored). */
export interface ChannelSecrets {
  readonly token?: string;
  readonly secret?: string;
}

/** Thrown when a variable a channel names is not set: the delivery fails and is retried. */
export class MissingSecretError extends Error {}

function read(env: NodeJS.ProcessEnv, name: string | undefined): string | undefined {
  if (!name) return undefined;
  const value = env[name];
  if (!value) throw new MissingSecretError(`environment variable ${name} is not set`);
  return value;
}

export function secretsOf(channel: ChannelSettings, env: NodeJS.ProcessEnv = process.env): ChannelSecrets {
  return { token: read(env, channel.tokenEnv), secret: read(env, channel.secretEnv) };
}

/**
 * Replaces every secret value in `text` (an error, a peer's answer) so that what is logged or
 * stored in the delivery log can never carry one.
 */
export function scrubSecrets(text: string, secrets: ChannelSecrets & { accessToken?: string }): string {
  let out = text;
  for (const value of [secrets.token, secrets.secret, secrets.accessToken]) {
    if (value && value.length >= 4) out = out.split(value).join('***');
  }
  return out;
}
