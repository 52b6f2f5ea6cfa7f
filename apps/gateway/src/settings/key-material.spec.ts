import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deriveSmChainKey, generateSm2PrivateKeyPem, Sm2PrivateKey } from '@toolgate/audit';
import { describe, expect, it } from 'vitest';
import { loadAuditKeyMaterial, SM2_SIGNING_KEY_FILE } from './key-material.js';
import { loadSettings } from './settings.js';

const dataDir = () => mkdtempSync(join(tmpdir(), 'toolgate-keys-'));

// ADR 040: the SM2 checkpoint key and the HMAC-SM3 chain key of `audit.cryptoSuite: sm`.
describe('loadAuditKeyMaterial with the sm suite', () => {
  it('makes no SM2 key under the standard suite, but always derives the SM3 chain key', () => {
    const dir = dataDir();
    const keys = loadAuditKeyMaterial({ TOOLGATE_AUDIT_SECRET: 's3cret' }, dir);
    expect(keys.smSigningKeyPem).toBeUndefined();
    expect(existsSync(join(dir, SM2_SIGNING_KEY_FILE))).toBe(false);
    expect(keys.smChainKey).toEqual(deriveSmChainKey('s3cret'));
  });

  it('makes an SM2 key (0600) under sm, reads it again, and keeps it after a switch back', () => {
    const dir = dataDir();
    const first = loadAuditKeyMaterial({}, dir, 'sm');
    const file = join(dir, SM2_SIGNING_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Sm2PrivateKey.fromPrivatePem(first.smSigningKeyPem!).keyId).toMatch(/^sm2:/);
    expect(loadAuditKeyMaterial({}, dir, 'sm').smSigningKeyPem).toBe(first.smSigningKeyPem);
    expect(loadAuditKeyMaterial({}, dir, 'standard').smSigningKeyPem).toBe(first.smSigningKeyPem);
    expect(first.smChainKey).toEqual(deriveSmChainKey(readFileSync(join(dir, 'audit-secret'), 'utf8')));
  });

  it('takes the SM2 key from the environment or a file it names', () => {
    const pem = generateSm2PrivateKeyPem();
    const dir = dataDir();
    expect(loadAuditKeyMaterial({ TOOLGATE_AUDIT_SM2_SIGNING_KEY: pem }, dir, 'sm').smSigningKeyPem).toBe(
      pem,
    );
    expect(existsSync(join(dir, SM2_SIGNING_KEY_FILE))).toBe(false);
    const named = join(dir, 'elsewhere.pem');
    writeFileSync(named, pem);
    expect(
      loadAuditKeyMaterial({ TOOLGATE_AUDIT_SM2_SIGNING_KEY_FILE: named }, dir, 'sm').smSigningKeyPem,
    ).toBe(pem);
  });
});

describe('audit.cryptoSuite', () => {
  it('is standard by default; the file sets it and TOOLGATE_AUDIT_CRYPTO_SUITE wins', () => {
    const base = { TOOLGATE_DATA_DIR: dataDir() };
    expect(loadSettings(base).audit).toMatchObject({ cryptoSuite: 'standard' });
    expect(loadSettings(base).audit.smSigningKeyPem).toBeUndefined();
    const cfg = mkdtempSync(join(tmpdir(), 'tg-cfg-'));
    writeFileSync(join(cfg, 'toolgate.yaml'), 'audit:\n  cryptoSuite: sm\n');
    const sm = loadSettings({ ...base, TOOLGATE_CONFIG_DIR: cfg }).audit;
    expect(sm.cryptoSuite).toBe('sm');
    expect(sm.smSigningKeyPem).toContain('PRIVATE KEY');
    expect(
      loadSettings({ ...base, TOOLGATE_CONFIG_DIR: cfg, TOOLGATE_AUDIT_CRYPTO_SUITE: 'standard' }).audit
        .cryptoSuite,
    ).toBe('standard');
    expect(() => loadSettings({ ...base, TOOLGATE_AUDIT_CRYPTO_SUITE: 'sm4' })).toThrow(
      /TOOLGATE_AUDIT_CRYPTO_SUITE/,
    );
  });
});
