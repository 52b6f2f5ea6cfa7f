import { z } from 'zod';
import { roleSchema } from './common.schema.js';
import { named } from './registry.js';

/** `GET /v1/me`: the principal behind the key. */
export const principalViewSchema = named(
  'Principal',
  z.object({
    principalId: z.string(),
    name: z.string(),
    role: roleSchema,
    tenantId: z.string().nullable(),
    agentTypes: z.array(z.string()).readonly().nullable(),
    principalType: z
      .enum(['api_key', 'user'])
      .describe('`user`: a person signed in through the identity provider (browser session)'),
    email: z.string().optional().describe('A signed-in person’s e-mail from the identity token'),
    separatedDuties: z
      .boolean()
      .optional()
      .describe(
        'True under the `dengbao3` profile: system, security and audit administrators hold separate powers and platform_admin none of them (ADR 039)',
      ),
    csrfToken: z
      .string()
      .optional()
      .describe('Browser sessions only: send it as X-CSRF-Token on every POST, PUT, PATCH and DELETE'),
  }),
);
export type PrincipalView = z.infer<typeof principalViewSchema>;

/** `GET /healthz` and `GET /readyz`. */
export const healthSchema = named(
  'Health',
  z.object({ status: z.string(), checks: z.record(z.string(), z.unknown()).optional() }),
);
export type Health = z.infer<typeof healthSchema>;

/** `GET /v1/auth/providers`: how people may sign in to the console (null: with an API key only). */
export const signInProvidersSchema = named(
  'SignInProviders',
  z.object({
    oidc: z
      .object({
        displayName: z.string().describe('The button says "Sign in with <displayName>"'),
        loginUrl: z.string().describe('Open this in the browser (not with fetch): it redirects to the IdP'),
      })
      .nullable(),
  }),
);
export type SignInProviders = z.infer<typeof signInProvidersSchema>;

/** `POST /v1/auth/logout`: the browser session is over (the cookie is cleared). */
export const signedOutSchema = named('SignedOut', z.object({ signedOut: z.literal(true) }));
export type SignedOut = z.infer<typeof signedOutSchema>;
