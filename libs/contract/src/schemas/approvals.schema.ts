import { z } from 'zod';
import { APPROVAL_STATUSES, CALL_STATUSES } from '../rules/vocabulary.js';
import { approvalModeSchema, instant, riskLevelSchema } from './common.schema.js';
import { errorEnvelopeSchema } from './envelope.schema.js';
import { named } from './registry.js';

export const callStatusSchema = named('CallStatus', z.enum(CALL_STATUSES));
export const approvalStatusSchema = named('ApprovalStatus', z.enum(APPROVAL_STATUSES));

/** The envelope a call answered: `{data, status:"ok"}` or the error envelope. */
export const callResultSchema = named(
  'CallResult',
  z.union([z.object({ data: z.unknown(), status: z.literal('ok') }), errorEnvelopeSchema]),
);

/** `GET /v1/calls/:callId`: the state of an L1+ or parked call and, once there is one, its envelope. */
/** Who decided: a key, or a person signed in through the identity provider (name and e-mail from its token). */
export const deciderSchema = named(
  'Decider',
  z.object({
    type: z.enum(['api_key', 'user']),
    id: z.string().describe('The key id, or the person as `<provider>:<subject>`'),
    name: z.string().optional(),
    email: z.string().optional(),
  }),
);
export type Decider = z.infer<typeof deciderSchema>;

export const callStateSchema = named(
  'CallState',
  z.object({
    callId: z.string(),
    status: callStatusSchema,
    tool: z.string(),
    agentType: z.string().nullable(),
    approvalId: z.string().optional(),
    decidedBy: deciderSchema.optional().describe('Who approved or denied the call, once decided'),
    result: callResultSchema.optional(),
    createdAt: instant(),
    updatedAt: instant(),
  }),
);
export type CallState = z.infer<typeof callStateSchema>;

/** `GET /v1/calls/:callId` for a reader other than the caller and admins: the result is redacted. */
export const callReadSchema = named(
  'CallRead',
  callStateSchema.extend({
    redacted: z.literal(true).optional().describe('The result was redacted for this reader'),
  }),
);
export type CallRead = z.infer<typeof callReadSchema>;

export const approvalDecisionSchema = named(
  'ApprovalDecision',
  z.object({
    approverId: z.string(),
    approverType: z.enum(['api_key', 'user']).optional(),
    approverName: z.string().optional(),
    approverEmail: z.string().optional().describe('A signed-in person’s e-mail from its identity token'),
    decision: z.enum(['approve', 'deny']),
    comment: z.string().nullable(),
    decidedAt: instant(),
  }),
);
export type ApprovalDecision = z.infer<typeof approvalDecisionSchema>;

/** An approval as the inbox shows it; `input` and `prompt` are redacted as the audit trail stores them. */
export const approvalViewSchema = named(
  'Approval',
  z.object({
    approvalId: z.string(),
    callId: z.string(),
    tenantId: z.string(),
    agentType: z.string().nullable(),
    tool: z.string(),
    implementation: z.string(),
    riskLevel: riskLevelSchema,
    prompt: z.string(),
    promptError: z.string().optional().describe('Why the tool’s own prompt could not be used'),
    input: z.unknown(),
    requestedBy: z.string(),
    status: approvalStatusSchema,
    mode: approvalModeSchema,
    requiredApprovals: z.number().int(),
    approverGroup: z
      .string()
      .optional()
      .describe("A tenant rule's approver group: only its members (approvals.groups) may decide"),
    decisions: z.array(approvalDecisionSchema),
    createdAt: instant(),
    expiresAt: instant(),
    decidedAt: instant().nullable(),
  }),
);
export type ApprovalView = z.infer<typeof approvalViewSchema>;

/** `POST /v1/approvals/:approvalId/approve|deny`: the approval and, when there is one, the call. */
export const decisionResultSchema = named(
  'DecisionResult',
  z.object({ approval: approvalViewSchema, call: callStateSchema.nullable() }),
);
export type DecisionResult = z.infer<typeof decisionResultSchema>;

/** Query of `GET /v1/approvals`. */
export const approvalListQuery = z.strictObject({
  status: approvalStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});
export type ApprovalListQuery = z.infer<typeof approvalListQuery>;

/** Body of `POST .../approve`. */
export const approveBody = z.strictObject({ comment: z.string().max(1000).optional() });
export type ApproveBody = z.infer<typeof approveBody>;

/** Body of `POST .../deny`. A deny is read later by the requester and the auditors: whitespace says nothing. */
export const denyBody = z.strictObject({
  comment: z
    .string()
    .max(1000)
    .refine((comment) => /\S/.test(comment), 'say why (the comment is blank)'),
});
export type DenyBody = z.infer<typeof denyBody>;
