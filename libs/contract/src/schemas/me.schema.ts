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
  }),
);
export type PrincipalView = z.infer<typeof principalViewSchema>;

/** `GET /healthz` and `GET /readyz`. */
export const healthSchema = named(
  'Health',
  z.object({ status: z.string(), checks: z.record(z.string(), z.unknown()).optional() }),
);
export type Health = z.infer<typeof healthSchema>;
