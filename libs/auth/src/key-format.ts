import { hash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'tg_';

/** A new API key secret: `tg_` + 32 random bytes in base64url. */
export function generateKeySecret(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * The stored form of a secret. A fast hash is right here: the secrets are 256 random bits, so there
 * is nothing to brute-force, and every request pays for this hash (cached afterwards).
 */
export function hashKeySecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** The part of a secret that may be shown to tell keys apart. */
export function displayPrefix(secret: string): string {
  return secret.slice(0, KEY_PREFIX.length + 6);
}
