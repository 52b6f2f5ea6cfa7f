import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** What a generated key looks like (key-format.ts): `tg_` + 32 bytes in base64url. */
const KEPT_KEY = /^tg_[A-Za-z0-9_-]{43}$/;

/** The file that keeps the platform admin key holds something else: the boot stops and says so. */
export class AdminKeyConfigError extends Error {
  constructor(file: string) {
    super(
      `${file} does not hold a Toolgate key (tg_…): delete it to have a new platform admin key made, or set TOOLGATE_ADMIN_KEY`,
    );
    this.name = 'AdminKeyConfigError';
  }
}

/** The platform admin key kept in `file`; undefined when there is no such file. */
export function readKeptAdminKey(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const secret = text.trim();
  if (!KEPT_KEY.test(secret)) throw new AdminKeyConfigError(file);
  return secret;
}

/** Writes `secret` to a new file beside `file`, readable by this user only. */
function writeBeside(file: string, secret: string): string {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return temp;
}

/**
 * Keeps a new key in `file` unless another process kept one first, and returns the key the file
 * holds afterwards. The file appears whole or not at all (written aside, then hard-linked into
 * place, which fails when the name is taken), so two gateways starting on one data directory agree.
 */
export function keepNewAdminKey(file: string, secret: string): string {
  const temp = writeBeside(file, secret);
  try {
    linkSync(temp, file);
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return readKeptAdminKey(file)!;
  } finally {
    unlinkSync(temp);
  }
}

/** Replaces the key kept in `file` (one that was revoked) in one step. */
export function replaceKeptAdminKey(file: string, secret: string): void {
  renameSync(writeBeside(file, secret), file);
}
