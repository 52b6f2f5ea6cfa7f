import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deriveChainKey } from '@toolgate/audit';

/** Secrets the audit trail needs, kept outside the database. */
export interface AuditKeyMaterial {
  /** Ed25519 private key (PEM) that signs checkpoints. */
  readonly signingKeyPem: string;
  /** Secret the per-tenant fingerprint keys derive from. */
  readonly fingerprintSecret: string;
  /** Key of the audit chain's links, derived from the same secret under its own context. */
  readonly chainKey: Buffer;
  /** Where they came from, for the startup log. */
  readonly source: string;
}

function readOrCreate(file: string, create: () => string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8');
  const value = create();
  writeFileSync(file, value, { mode: 0o600 });
  return value;
}

/**
 * The audit secrets: from the environment when set (TOOLGATE_AUDIT_SIGNING_KEY or
 * TOOLGATE_AUDIT_SIGNING_KEY_FILE, TOOLGATE_AUDIT_SECRET) — what production and several gateways
 * sharing one database use — otherwise files in the data directory, created on first boot with
 * mode 0600, so the zero-setup demo works and keeps its chain verifiable across restarts. Losing
 * or changing the audit secret makes every keyed event fail verification: keep it with the
 * signing key.
 */
export function loadAuditKeyMaterial(env: NodeJS.ProcessEnv, dataDir: string): AuditKeyMaterial {
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
    source: fromEnvKey || fromEnvSecret ? 'environment and data directory' : `data directory ${dataDir}`,
  };
}
