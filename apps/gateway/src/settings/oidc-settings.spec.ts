import { describe, expect, it } from 'vitest';
import { oidcFileSchema } from './oidc-file.js';
import { oidcSettings } from './oidc-settings.js';

const FILE = {
  issuer: 'https://sso.example.com/realms/acme',
  clientId: 'toolgate-console',
  clientSecretEnv: 'TOOLGATE_OIDC_CLIENT_SECRET',
  redirectUrl: 'https://toolgate.example.com/v1/auth/oidc/callback',
  rules: [{ claim: 'groups', equals: 'acme-approvers', role: 'approver', tenantId: 'acme' }],
};

const issues = (file: unknown) =>
  oidcFileSchema.safeParse(file).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];

describe('auth.oidc settings', () => {
  it('fills defaults and reads the secret from the variable the file names', () => {
    const parsed = oidcFileSchema.parse(FILE);
    const options = oidcSettings(parsed, { TOOLGATE_OIDC_CLIENT_SECRET: 's3cret' });
    expect(options).toMatchObject({
      displayName: 'SSO',
      scopes: ['openid', 'profile', 'email'],
      sessionTtlMs: 8 * 60 * 60 * 1000,
      clientSecret: 's3cret',
      allowInsecureIssuer: false,
    });
  });

  it('refuses a missing secret variable without printing any value', () => {
    expect(() => oidcSettings(oidcFileSchema.parse(FILE), {})).toThrow(
      /TOOLGATE_OIDC_CLIENT_SECRET, which is not set/,
    );
  });

  it('refuses plain http except on loopback, agent roles, and rules without their tenant', () => {
    expect(issues({ ...FILE, issuer: 'http://sso.example.com' })).toEqual([
      'issuer: use https (plain http only for localhost / 127.0.0.1)',
    ]);
    expect(
      issues({ ...FILE, issuer: 'http://127.0.0.1:8080', redirectUrl: 'http://localhost:3000/cb' }),
    ).toEqual([]);
    expect(
      issues({ ...FILE, rules: [{ claim: 'groups', equals: 'x', role: 'agent', tenantId: 'acme' }] }),
    ).toHaveLength(1);
    expect(issues({ ...FILE, rules: [{ claim: 'groups', equals: 'x', role: 'approver' }] })).toEqual([
      'rules.0.tenantId: a approver rule needs a tenantId',
    ]);
    expect(issues({ ...FILE, clientSecret: 'inline' })).toHaveLength(1);
    expect(issues({ ...FILE, scopes: ['profile'] })).toEqual(['scopes: scopes must include openid']);
  });
});
