import { CALL_FACES, CALL_STATUSES } from '@toolgate/contract/rules';
import { z } from 'zod';

const id = z.string().min(1).max(64);
const value = z.string().min(1).max(255);

/** Query of `GET /v1/audit/calls` (CONTRACT.md "Audit"): every filter is served by an index. */
export const auditCallsQuerySchema = z.strictObject({
  tenantId: id.optional(),
  agentType: id.optional(),
  tool: id.optional(),
  face: z.enum(CALL_FACES).optional(),
  riskLevel: z.enum(['L0', 'L1', 'L2', 'L3']).optional(),
  state: z.enum(CALL_STATUSES).optional(),
  status: z.enum(['ok', 'error']).optional(),
  code: id.optional(),
  runId: id.optional(),
  sessionId: z.string().min(1).max(128).optional(),
  callId: id.optional(),
  target: value
    .optional()
    .describe(
      'A declared key field’s value (`payment-api`), a field and its value (`service=payment-api`), or a whole target summary',
    ),
  input: value
    .regex(/^[^=]+=.*$/, 'field=value')
    .optional()
    .describe('A declared key field of the input and its value: `service=payment-api`'),
  person: value.optional().describe('Requester or approver, by key or person name (any case) or id'),
  requester: value.optional().describe('The key or person that asked, by name or id'),
  approver: value.optional().describe('An approver, by name or id'),
  from: z.iso.datetime({ offset: true }).optional().describe('ISO-8601, inclusive: the call’s first event'),
  to: z.iso.datetime({ offset: true }).optional().describe('ISO-8601, inclusive'),
  cursor: z.string().max(400).optional().describe('nextCursor of the previous page'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditCallsQuery = z.infer<typeof auditCallsQuerySchema>;

/** Query of `GET /v1/audit/principals`. */
export const auditPrincipalsQuerySchema = z.strictObject({
  tenantId: id.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(500),
});
export type AuditPrincipalsQuery = z.infer<typeof auditPrincipalsQuerySchema>;
