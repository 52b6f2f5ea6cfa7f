import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { displayPrefix, generateKeySecret, hashKeySecret } from './key-format.js';
import { canAccessTenant, type Principal } from './principal.js';
import type { Role } from './roles.js';

const principal = (role: Role, tenantId: string | null): Principal => ({
  principalType: 'api_key',
  principalId: `key_${role}`,
  role,
  tenantId,
  agentTypes: null,
  name: role,
});

describe('key format', () => {
  it('makes secrets of tg_ and 32 random bytes in base64url, never the same twice', () => {
    const secrets = Array.from({ length: 50 }, generateKeySecret);
    for (const s of secrets) {
      expect(s).toMatch(/^tg_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(s.slice(3), 'base64url')).toHaveLength(32);
    }
    expect(new Set(secrets).size).toBe(secrets.length);
  });

  it('stores the SHA-256 of a secret in hex, and shows only its first characters', () => {
    const secret = 'tg_abcdefghijklmnop';
    expect(hashKeySecret(secret)).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(hashKeySecret(secret)).not.toBe(hashKeySecret(`${secret}x`));
    expect(displayPrefix(secret)).toBe('tg_abcdef');
  });
});

describe('canAccessTenant', () => {
  it('lets tenant-bound keys act on their own tenant only', () => {
    for (const role of ['tenant_admin', 'approver', 'agent', 'auditor'] as const) {
      expect(canAccessTenant(principal(role, 'acme'), 'acme')).toBe(true);
      expect(canAccessTenant(principal(role, 'acme'), 'globex')).toBe(false);
    }
  });

  it('lets tenantless platform admins and auditors act on any tenant, and no other tenantless key', () => {
    expect(canAccessTenant(principal('platform_admin', null), 'globex')).toBe(true);
    expect(canAccessTenant(principal('auditor', null), 'globex')).toBe(true);
    expect(canAccessTenant(principal('agent', null), 'globex')).toBe(false);
    expect(canAccessTenant(principal('tenant_admin', null), 'globex')).toBe(false);
  });
});
