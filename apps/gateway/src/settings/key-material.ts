import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  deriveChainKey,
  deriveSmChainKey,
  generateSm2PrivateKeyPem,
  type CryptoSuite,
} from '@toolgate/audit';

/** Secrets the audit trail needs, kept outside the database. */
export interface AuditKeyMaterial {
  /** Ed25519 private key (PEM) that signs checkpoints. */
  readonly signingKeyPem: string;
  /** Secret the per-tenant fingerprint keys derive from. */
  readonly fingerprintSecret: string;
  /** Key of the audit chain's links, derived from the same secret under its own context. */
  readonly chainKey: Buffer;
  /** Key of HMAC-SM3 links (ADR 040), derived from the same secret with SM3. */
  readonly smChainKey: Buffer;
  /**
   * SM2 private key (PEM) of the `sm` suite's checkpoints; present when configured, when the data
   * directory has one, or made there when the suite is `sm` — kept after a switch back to
   * `standard`, so the checkpoints it signed still verify.
   */
  readonly smSigningKeyPem?: string;
  /** Where they came from, for the startup log. */
  readonly source: string;
}

function readOrCreate(file: string, create: () => string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8');
  const value = create();
  writeFileSync(file, value, { mode: 0o600 });
  return value;
}

/** The file of the SM2 checkpoint key in the data directory when the environment gives none. */
export const SM2_SIGNING_KEY_FILE = 'audit-signing-key-sm2.pem';

/**
 * The SM2 checkpoint key: TOOLGATE_AUDIT_SM2_SIGNING_KEY or _FILE, else the data directory's file
 * (made, mode 0600, when the suite is `sm`); none under `standard` when neither exists.
 */
function loadSm2Key(env: NodeJS.ProcessEnv, dataDir: string, suite: CryptoSuite): string | undefined {
  const fromEnv =
    env.TOOLGATE_AUDIT_SM2_SIGNING_KEY ??
    (env.TOOLGATE_AUDIT_SM2_SIGNING_KEY_FILE
      ? readFileSync(env.TOOLGATE_AUDIT_SM2_SIGNING_KEY_FILE, 'utf8')
      : undefined);
  if (fromEnv) return fromEnv;
  const file = join(dataDir, SM2_SIGNING_KEY_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8');
  if (suite !== 'sm') return undefined;
  mkdirSync(dataDir, { recursive: true });
  return readOrCreate(file, generateSm2PrivateKeyPem);
}

/**
 * The audit secrets: from the environment when set (TOOLGATE_AUDIT_SIGNING_KEY or
 * TOOLGATE_AUDIT_SIGNING_KEY_FILE, TOOLGATE_AUDIT_SECRET) — what production and several gateways
 * sharing one database use — otherwise files in the data directory, created on first boot with
 * mode 0600, so the zero-setup demo works and keeps its chain verifiable across restarts. Losing
 * or changing the audit secret makes every keyed event fail verification: keep it with the
 * signing key. The SM2 key of the `sm` suite (ADR 040) is found the same way.
 */
export function loadAuditKeyMaterial(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  suite: CryptoSuite = 'standard',
): AuditKeyMaterial {
  const smSigningKeyPem = loadSm2Key(env, dataDir, suite);
  const sm = smSigningKeyPem ? { smSigningKeyPem } : {};
  const fromEnvKey =
    env.TOOLGATE_AUDIT_SIGNING_KEY ??
    (env.TOOLGATE_AUDIT_SIGNING_KEY_FILE
      ? readFileSync(env.TOOLGATE_AUDIT_SIGNING_KEY_FILE, 'utf8')
      : undefined);
  const fromEnvSecret = env.TOOLGATE_AUDIT_SECRET;
  if (fromEnvKey && fromEnvSecret)
    return {
      signingKeyPem: fromEnvKey,
      fingerprintSecret: fromEnvSecret,
      chainKey: deriveChainKey(fromEnvSecret),
      smChainKey: deriveSmChainKey(fromEnvSecret),
      ...sm,
      source: 'environment',
    };
  mkdirSync(dataDir, { recursive: true });
  const signingKeyPem =
    fromEnvKey ??
    readOrCreate(join(dataDir, 'audit-signing-key.pem'), () =>
      generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    );
  const fingerprintSecret =
    fromEnvSecret ?? readOrCreate(join(dataDir, 'audit-secret'), () => randomBytes(32).toString('base64url'));
  return {
    signingKeyPem,
    fingerprintSecret,
    chainKey: deriveChainKey(fingerprintSecret),
    smChainKey: deriveSmChainKey(fingerprintSecret),
    ...sm,
    source: fromEnvKey || fromEnvSecret ? 'environment and data directory' : `data directory ${dataDir}`,
  };
}
