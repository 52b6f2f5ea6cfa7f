import { z } from 'zod';
import { ROLES, TENANT_BOUND_ROLES } from '../rules/vocabulary.js';
import { instant, roleSchema } from './common.schema.js';
import { named } from './registry.js';

/** An API key as listed: never the secret. `createdBy` is a key id, or `system` for boot-time keys. */
export const apiKeyViewSchema = named(
  'ApiKeyView',
  z.object({
    id: z.string(),
    name: z.string(),
    role: roleSchema,
    tenantId: z.string().nullable(),
    agentTypes: z.array(z.string()).readonly().nullable(),
    owner: z
      .string()
      .nullable()
      .describe('The person who answers for the key (`<provider>:<subject>`); may not approve its calls'),
    prefix: z.string(),
    createdAt: instant(),
    createdBy: z.string(),
    revokedAt: instant().nullable(),
  }),
);
export type ApiKeyView = z.infer<typeof apiKeyViewSchema>;

/** `POST /v1/admin/keys`: the view plus the secret, shown this once. */
export const createdKeySchema = named('CreatedKey', apiKeyViewSchema.extend({ key: z.string() }));
export type CreatedKey = z.infer<typeof createdKeySchema>;

/**
 * Body of `POST /v1/admin/keys`. A tenant-bound role's key needs a `tenantId`: the document states
 * it (`anyOf`), the key service enforces it — after filling in a tenant admin's own tenant, which is
 * why the schema itself does not refuse a body without one.
 */
export const createKeyBody = z
  .strictObject({
    name: z.string().min(1).max(200),
    role: roleSchema,
    tenantId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe(
        `Needed for ${TENANT_BOUND_ROLES.join(', ')} keys (a tenant admin's key is for its own tenant when left out); a platform_admin key has none`,
      ),
    agentTypes: z.array(z.string().min(1).max(64)).max(100).optional(),
    owner: z
      .string()
      .min(3)
      .max(288)
      .optional()
      .describe('The person who answers for the key, as `<provider>:<subject>` (e.g. `oidc:248289761001`)'),
  })
  .meta({
    anyOf: [
      { properties: { role: { enum: [...TENANT_BOUND_ROLES] } }, required: ['tenantId'] },
      { properties: { role: { enum: ROLES.filter((r) => !TENANT_BOUND_ROLES.includes(r)) } } },
    ],
  });
export type CreateKeyBody = z.infer<typeof createKeyBody>;

/** Body of `PATCH /v1/admin/keys/:keyId`: who answers for the key now (null: nobody). */
export const changeKeyOwnerBody = z.strictObject({
  owner: z
    .string()
    .min(3)
    .max(288)
    .nullable()
    .describe(
      'The person who answers for the key, as `<provider>:<subject>`; null for none (not for a separated administrator under the dengbao3 profile)',
    ),
});
export type ChangeKeyOwnerBody = z.infer<typeof changeKeyOwnerBody>;
