import { ROLES } from '@toolgate/auth';
import { z } from 'zod';

/** Body of `POST /v1/admin/keys`. */
export const createKeyBody = z.strictObject({
  name: z.string().min(1).max(200),
  role: z.enum(ROLES),
  tenantId: z.string().min(1).max(64).optional(),
  agentTypes: z.array(z.string().min(1).max(64)).max(100).optional(),
});
export type CreateKeyBody = z.infer<typeof createKeyBody>;
