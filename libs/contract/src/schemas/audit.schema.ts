import { z } from 'zod';
import { AUDIT_EVENT_TYPES, CALL_FACES, type AuditEventField } from '../rules/vocabulary.js';
import { callStatusSchema } from './approvals.schema.js';
import { instant, riskLevelSchema } from './common.schema.js';
import { named } from './registry.js';

export const auditEventTypeSchema = named('AuditEventType', z.enum(AUDIT_EVENT_TYPES));

/** The bounded record of a tool's output: a summary, its full size and SHA-256. */
export const outputSummarySchema = named(
  'OutputSummary',
  z.object({
    text: z.string().optional().describe('The model projection as text, when the tool has one'),
    json: z.string().optional().describe('The output as JSON, cut to 1 KiB'),
    truncated: z.boolean(),
    bytes: z.number().int(),
    sha256: z.string(),
  }),
);

/** One event of the trail (`GET /v1/audit/events` items); every field is already redacted. */
export const auditEventViewSchema = named(
  'AuditEvent',
  z.object({
    id: z.string(),
    tenantId: z.string(),
    seq: z.number().int(),
    callId: z.string().nullable(),
    event: auditEventTypeSchema,
    tool: z.string().nullable(),
    implementation: z.string().nullable(),
    riskLevel: riskLevelSchema.nullable(),
    agentType: z.string().nullable(),
    sessionId: z.string().nullable(),
    actor: z.object({ type: z.enum(['api_key', 'user', 'system']), id: z.string() }),
    initiatorId: z.string().nullable().describe('The key that started the call an event belongs to'),
    approver: z.object({ id: z.string() }).optional(),
    bindingVersion: z.number().int().nullable(),
    definitionHash: z.string().nullable(),
    input: z.unknown().describe('Redacted'),
    outputSummary: outputSummarySchema.nullable(),
    status: z.enum(['ok', 'error']).nullable(),
    code: z.string().nullable(),
    durationMs: z.number().nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
    occurredAt: instant(),
    prevHash: z.string(),
    hash: z.string(),
  }),
);
export type AuditEventView = z.infer<typeof auditEventViewSchema>;

// Compiles only while the schema's keys and AUDIT_EVENT_FIELDS (the console's list) are the same set.
const sameFields: [keyof AuditEventView] extends [AuditEventField]
  ? [AuditEventField] extends [keyof AuditEventView]
    ? true
    : false
  : false = true;
void sameFields;

/** `GET /v1/audit/events`: a page, newest first, and the cursor of the next one. */
export const auditPageSchema = named(
  'AuditPage',
  z.object({ items: z.array(auditEventViewSchema), nextCursor: z.string().nullable() }),
);
export type AuditPage = z.infer<typeof auditPageSchema>;

/** `GET /v1/audit/calls/:callId`: every event of one call, in order. */
export const callStorySchema = named(
  'CallStory',
  z.object({
    callId: z.string(),
    complete: z.boolean().describe('The call has a closing event'),
    events: z.array(auditEventViewSchema),
  }),
);
export type CallStory = z.infer<typeof callStorySchema>;

/** An item of `GET /v1/audit/incomplete`: a call with a `started` and no closing event yet. */
export const incompleteCallSchema = named(
  'IncompleteCall',
  z.object({
    callId: z.string(),
    tenantId: z.string(),
    tool: z.string().nullable(),
    instanceId: z.string().nullable().describe('The gateway process that ran it, when known'),
    startedAt: instant(),
  }),
);
export type IncompleteCall = z.infer<typeof incompleteCallSchema>;

/** One tenant's chain in `GET /v1/audit/verify`. */
export const tenantVerificationSchema = named(
  'TenantVerification',
  z.object({
    tenantId: z.string(),
    ok: z.boolean(),
    checked: z.number().int(),
    checkpoints: z.number().int().describe('Signed checkpoints checked'),
    firstBrokenEventId: z.string().optional(),
    firstBrokenSeq: z.number().int().optional(),
    problem: z.string().optional(),
    breaks: z
      .array(
        z.object({
          problem: z.string(),
          eventId: z.string().optional().describe('The event’s id (`GET /v1/audit/events/:id`)'),
          seq: z.number().int().optional().describe('Its place in the tenant’s chain'),
        }),
      )
      .readonly()
      .optional()
      .describe('Every break found in a full verification (at most 100), first first'),
    verifiedFromSeq: z
      .number()
      .int()
      .optional()
      .describe('`mode=incremental`: verification began after this seq, the newest checkpoint'),
    purgedThroughSeq: z
      .number()
      .int()
      .optional()
      .describe(
        'Events up to this seq were archived and purged (retention): verification starts at the archived boundary',
      ),
  }),
);
export type TenantVerification = z.infer<typeof tenantVerificationSchema>;

/** `GET /v1/audit/verify`: against one consistent view: checkpoints, the chain head, the events up to it. */
export const verificationSchema = named(
  'Verification',
  z.object({
    ok: z.boolean(),
    checked: z.number().int(),
    firstBrokenEventId: z.string().optional(),
    problem: z.string().optional(),
    tenants: z.array(tenantVerificationSchema).readonly(),
  }),
);
export type Verification = z.infer<typeof verificationSchema>;

/** `POST /v1/audit/verify-jobs`, `GET /v1/audit/verify-jobs/:id`: a full verification in the background. */
export const verifyJobSchema = named(
  'VerifyJob',
  z.object({
    id: z.string(),
    status: z.enum(['running', 'done', 'failed']),
    tenantId: z.string().nullable().describe('null: every tenant with a chain'),
    startedAt: instant(),
    finishedAt: instant().optional(),
    checked: z.number().int().describe('Events checked so far'),
    total: z.number().int().describe('Events in the chains when the job started'),
    instanceId: z.string().optional().describe('The gateway instance running it (or that ran it)'),
    result: verificationSchema.optional().describe('When done: what `GET /v1/audit/verify` answers'),
    error: z.string().optional(),
  }),
);
export type VerifyJob = z.infer<typeof verifyJobSchema>;

/** A signed checkpoint: a tenant's chain head, signed with Ed25519. */
export const checkpointSchema = named(
  'Checkpoint',
  z.object({
    tenantId: z.string(),
    seq: z.number().int(),
    headHash: z.string(),
    signedAt: instant(),
    keyId: z.string(),
    signature: z.string(),
    fromSeq: z
      .number()
      .int()
      .optional()
      .describe(
        'The stretch the public digest covers starts after this seq (absent on checkpoints signed before v1.8)',
      ),
    fromHash: z
      .string()
      .optional()
      .describe('Hash of the event at `fromSeq` (64 zeros at the start of the chain)'),
    publicDigest: z
      .string()
      .optional()
      .describe(
        'SHA-256 chain over the stretch’s events, recomputable from exported events without any secret',
      ),
    algorithm: z
      .literal('sm2-sm3')
      .optional()
      .describe(
        '`sm2-sm3`: signed with SM2 (GB/T 32918.2, ID 1234567812345678) over an SM3 public digest; absent: Ed25519 over SHA-256 (ADR 040)',
      ),
  }),
);
export type Checkpoint = z.infer<typeof checkpointSchema>;

/** `GET /v1/audit/checkpoints`: the checkpoints and the public key, for an outside anchor. */
export const checkpointExportSchema = named(
  'CheckpointExport',
  z.object({ publicKeyPem: z.string(), keyId: z.string(), checkpoints: z.array(checkpointSchema) }),
);
export type CheckpointExport = z.infer<typeof checkpointExportSchema>;

/** One key checkpoints are signed with. */
export const auditPublicKeySchema = named(
  'AuditPublicKey',
  z.object({
    keyId: z
      .string()
      .describe(
        '`ed25519:` and the first 16 hex digits of the SHA-256 of the key (SPKI DER); `sm2:` and the first 16 of its SM3',
      ),
    algorithm: z.enum(['Ed25519', 'SM2']),
    publicKeyPem: z.string().describe('SPKI PEM'),
  }),
);
export type AuditPublicKey = z.infer<typeof auditPublicKeySchema>;

/** `GET /v1/audit/public-keys`: what an outside verifier needs besides the evidence (ADR 030). */
export const auditPublicKeysSchema = named(
  'AuditPublicKeys',
  z.object({ keys: z.array(auditPublicKeySchema) }),
);
export type AuditPublicKeys = z.infer<typeof auditPublicKeysSchema>;

/** Query of `GET /v1/audit/checkpoints` and body of `POST /v1/audit/checkpoints`. */
export const checkpointTenantQuery = z.strictObject({ tenantId: z.string().max(64).optional() });
export type CheckpointTenantQuery = z.infer<typeof checkpointTenantQuery>;

/** A person or key as the audit views name it: its id, and its name when the trail knows one. */
export const auditPersonSchema = named(
  'AuditPerson',
  z.object({
    type: z.enum(['api_key', 'user', 'system']),
    id: z.string(),
    name: z
      .string()
      .nullable()
      .describe('The key’s or person’s name (names are not secrets); null when unknown'),
  }),
);
export type AuditPerson = z.infer<typeof auditPersonSchema>;

/** One approver's decision on a call. */
export const auditCallApproverSchema = named(
  'AuditCallApprover',
  auditPersonSchema.extend({
    decision: z.enum(['approve', 'deny']),
    decidedAt: instant(),
  }),
);
export type AuditCallApprover = z.infer<typeof auditCallApproverSchema>;

/**
 * One call as an auditor reads it (`GET /v1/audit/calls` items): a projection of the call's
 * events in the trail, rebuilt from them on demand. Every field is already redacted.
 */
export const auditCallSchema = named(
  'AuditCall',
  z.object({
    tenantId: z.string(),
    callId: z.string(),
    agentType: z.string().nullable(),
    tool: z.string().nullable(),
    implementation: z.string().nullable(),
    riskLevel: riskLevelSchema.nullable(),
    face: z.enum(CALL_FACES).nullable().describe('rest, mcp or run; null when the trail does not say'),
    target: z
      .string()
      .nullable()
      .describe('The tool’s declared key fields and their values, e.g. `service=payment-api`'),
    input: z.unknown().describe('Redacted'),
    state: callStatusSchema,
    status: z.enum(['ok', 'error']).nullable(),
    code: z.string().nullable().describe('The outcome’s error code; null while open or when ok'),
    requester: auditPersonSchema.nullable(),
    approvers: z.array(auditCallApproverSchema),
    requestedAt: instant().describe('The call’s first event'),
    startedAt: instant().nullable().describe('When the tool started (null: it never ran)'),
    finishedAt: instant().nullable(),
    durationMs: z.number().nullable(),
    runId: z.string().nullable(),
    sessionId: z.string().nullable(),
    events: z.number().int().describe('Events of the call in the trail'),
    lastSeq: z.number().int().describe('Seq of the call’s newest event in its tenant’s chain'),
  }),
);
export type AuditCall = z.infer<typeof auditCallSchema>;

/** `GET /v1/audit/calls`: a page of calls, newest first, and the cursor of the next one. */
export const auditCallPageSchema = named(
  'AuditCallPage',
  z.object({ items: z.array(auditCallSchema), nextCursor: z.string().nullable() }),
);
export type AuditCallPage = z.infer<typeof auditCallPageSchema>;

/** `GET /v1/audit/principals` items: the keys and people the trail has names for. */
export const auditPrincipalSchema = named(
  'AuditPrincipal',
  z.object({
    tenantId: z.string(),
    type: z.enum(['api_key', 'user']),
    id: z.string(),
    name: z.string(),
  }),
);
export type AuditPrincipal = z.infer<typeof auditPrincipalSchema>;

/**
 * `GET /v1/approvals/:approvalId/context`: what an approver decides with — the requester by name,
 * the run that asked, the call as the trail tells it (its outcome once decided) and earlier
 * decided calls of the same tool on the same target.
 */
export const approvalContextSchema = named(
  'ApprovalContext',
  z.object({
    approvalId: z.string(),
    callId: z.string(),
    requester: auditPersonSchema,
    runId: z.string().nullable(),
    target: z.string().nullable(),
    call: auditCallSchema
      .nullable()
      .describe('The call in the trail (null for a moment after it was parked)'),
    earlier: z
      .array(auditCallSchema)
      .describe('Up to 5 earlier decided calls of the tool on the same target, newest first'),
  }),
);
export type ApprovalContext = z.infer<typeof approvalContextSchema>;
