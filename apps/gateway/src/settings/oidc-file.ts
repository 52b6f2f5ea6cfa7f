import { z } from 'zod';

/** Hosts a plain-http issuer or redirect URL may name: the IdP and the gateway on this machine. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

const isLoopbackOrHttps = (value: string) => {
  const url = new URL(value);
  return url.protocol === 'https:' || LOOPBACK_HOSTS.has(url.hostname);
};

const httpsUnlessLoopback = z
  .url({ protocol: /^https?$/ })
  .refine(isLoopbackOrHttps, 'use https (plain http only for localhost / 127.0.0.1)');

/** Roles people can be given by claims: agents are programs and keep keys. */
const PERSON_ROLES = [
  'platform_admin',
  'tenant_admin',
  'approver',
  'auditor',
  // The separated administrators of the dengbao3 profile (ADR 039), platform-wide like platform_admin.
  'system_admin',
  'security_admin',
  'audit_admin',
] as const;
const PLATFORM_ROLES: readonly string[] = ['platform_admin', 'system_admin', 'security_admin', 'audit_admin'];
const TENANT_ROLES: readonly string[] = ['tenant_admin', 'approver'];

const claimRuleSchema = z
  .strictObject({
    claim: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/, 'a top-level claim name, e.g. groups')
      .describe('A top-level claim of the ID token or userinfo (`email`, `groups`, `roles`…).'),
    equals: z
      .string()
      .min(1)
      .max(256)
      .describe('The value it must have (or hold, for a list claim such as `groups`).'),
    role: z.enum(PERSON_ROLES).describe('The role it gives; agents are programs and keep keys.'),
    tenantId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe(
        'The tenant of a `tenant_admin` or `approver` (required for them; none for `platform_admin`, `system_admin`, `security_admin`, `audit_admin`).',
      ),
  })
  .superRefine((rule, ctx) => {
    if (TENANT_ROLES.includes(rule.role) && !rule.tenantId)
      ctx.addIssue({ code: 'custom', path: ['tenantId'], message: `a ${rule.role} rule needs a tenantId` });
    if (PLATFORM_ROLES.includes(rule.role) && rule.tenantId)
      ctx.addIssue({ code: 'custom', path: ['tenantId'], message: `${rule.role} has no tenant` });
  });

/**
 * `auth.oidc` of `config/toolgate.yaml`: sign-in of people through the company's OpenID provider.
 * The client secret is read from the environment variable `clientSecretEnv` names, never the file.
 */
export const oidcFileSchema = z.strictObject({
  displayName: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe('The name on the sign-in button (`Sign in with Keycloak`).'),
  issuer: httpsUnlessLoopback.describe(
    'The issuer URL (discovery is read from it); https unless on loopback.',
  ),
  clientId: z.string().min(1).max(256).describe('The confidential client registered for the console.'),
  clientSecretEnv: z
    .string()
    .regex(/^[A-Z_][A-Z0-9_]*$/, 'the NAME of an environment variable holding the secret')
    .optional()
    .describe('The name of the environment variable holding the client secret, never the secret.'),
  scopes: z
    .array(z.string().regex(/^[A-Za-z0-9_.:/-]{1,64}$/))
    .min(1)
    .max(20)
    .refine((s) => s.includes('openid'), 'scopes must include openid')
    .optional()
    .describe('The scopes asked for; `openid` among them.'),
  redirectUrl: httpsUnlessLoopback.describe(
    '`https://<gateway>/v1/auth/oidc/callback`, as registered with the provider.',
  ),
  sessionTtlMs: z
    .number()
    .int()
    .positive()
    .max(7 * 24 * 60 * 60 * 1000)
    .optional()
    .describe("A session's absolute lifetime; a role changed in the provider applies at the next sign-in."),
  maxPendingLogins: z
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .optional()
    .describe(
      'Sign-ins under way kept at most; past it a new one answers 429 until started ones finish or expire.',
    ),
  rules: z
    .array(claimRuleSchema)
    .max(500)
    .describe('Who gets which role: the first matching rule wins; a person no rule maps sees "no access".'),
});

export type OidcFile = z.infer<typeof oidcFileSchema>;
