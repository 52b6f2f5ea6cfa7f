/**
 * The words of the REST contract (docs/CONTRACT.md) as plain constant lists: roles, risk levels,
 * approval modes, statuses, audit event types and error codes. No Zod here, so the console can
 * import these values without bundling the schemas.
 */

export const ROLES = [
  'platform_admin',
  'tenant_admin',
  'approver',
  'auditor',
  'agent',
  // 等保 2.0 三员分立 (ADR 039): the system, security and audit administrators, platform-wide.
  'system_admin',
  'security_admin',
  'audit_admin',
] as const;
export type Role = (typeof ROLES)[number];

/**
 * The separated administrators (等保 2.0 8.1.5): with the `dengbao3` profile each holds its own
 * powers only, `platform_admin` none of them, and no person holds two (ADR 039).
 */
export const SEPARATED_ROLES = ['system_admin', 'security_admin', 'audit_admin'] as const;
export type SeparatedRole = (typeof SEPARATED_ROLES)[number];

export const isSeparatedRole = (role: string): role is SeparatedRole =>
  (SEPARATED_ROLES as readonly string[]).includes(role);

/** Roles whose keys belong to one tenant; only platform admins and auditors may be tenantless. */
export const TENANT_BOUND_ROLES: readonly Role[] = ['tenant_admin', 'approver', 'agent'];

export const RISK_LEVELS = ['L0', 'L1', 'L2', 'L3'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

/** Approval modes, loosest first: the order the tighten-only rule compares them in. */
export const APPROVAL_MODES = ['never', 'once', 'always'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

export const APPROVAL_STATUSES = ['pending', 'approved', 'denied', 'expired'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** What `GET /v1/calls/:callId` says of a call (a call queued to run reads as `running`). */
export const CALL_STATUSES = [
  'pending_approval',
  'running',
  'succeeded',
  'failed',
  'denied',
  'expired',
  'interrupted',
] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

/** The faces a call comes through (`GET /v1/audit/calls` `face`). */
export const CALL_FACES = ['rest', 'mcp', 'run'] as const;
export type CallFace = (typeof CALL_FACES)[number];

/** Formats of `GET /v1/agents/:agentType/tools`. */
export const TOOL_LIST_FORMATS = ['jsonschema', 'openai', 'anthropic', 'mcp'] as const;
export type ToolListFormat = (typeof TOOL_LIST_FORMATS)[number];

/**
 * Personal-information classes of a tool's fields (PIPL, GB/T 35273; ADR 036): `personal` is
 * stored with a partial mask, `sensitive_personal` (ID numbers, bank cards, health, location,
 * biometrics, minors) and `important_data` are sealed whole.
 */
export const PI_CLASSES = ['personal', 'sensitive_personal', 'important_data'] as const;
export type PiClass = (typeof PI_CLASSES)[number];

export const LOCALES = ['zh-CN', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

/** A run of an agent (`GET /v1/runs/:runId`): `awaiting_approval` holds no compute. */
export const RUN_STATUSES = ['running', 'awaiting_approval', 'completed', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Events of a run, streamed as SSE and replayable with Last-Event-ID. */
export const RUN_EVENT_TYPES = [
  'run_started',
  'model_started',
  'model_finished',
  'text_delta',
  'tool_call_requested',
  'tool_partial',
  'tool_result',
  'approval_requested',
  'approval_decided',
  'run_finished',
] as const;
export type RunEventType = (typeof RUN_EVENT_TYPES)[number];

/** Events of the audit trail. Call events carry a call id; admin events do not. */
export const AUDIT_EVENT_TYPES = [
  'started',
  'finished',
  // An L0 call, recorded once after it ran (issue 23): batched, never waited for before the tool runs.
  'accessed',
  'late_completion',
  'not_executed',
  'interrupted',
  'approval_requested',
  'approval_decided',
  'key_created',
  'key_revoked',
  'binding_changed',
  // Upstream tool sources: registered, imported, quarantined, reviewed, removed (issue 11).
  'upstream_changed',
  'tenant_created',
  'tenant_changed',
  'run_started',
  'run_finished',
  // People at the console: sign-in (and a refused one), sign-out (issue 24).
  'signed_in',
  'sign_in_failed',
  'signed_out',
  // A request refused for an authenticated key (403, TOOL_NOT_FOUND, quota, …), with its reason code.
  'access_denied',
  // Retention (ADR 037): a tenant's retention or legal hold changed (before/after); archived events purged.
  'retention_changed',
  'audit_purged',
  // Administrative acts (issue 24, ADR 039): a browser session that ran out, the OIDC role rules
  // changed between boots, the trail exported or downloaded as evidence, a verification run, an
  // outbox delivery retried by hand, and (dengbao3 profile) every request to an admin route.
  'session_expired',
  'key_owner_changed',
  'role_mapping_changed',
  'trail_exported',
  'evidence_downloaded',
  // A tenant's processing records (PIPL 第55–56条) taken as CSV (ADR 048).
  'processing_records_exported',
  'chain_verified',
  'notification_retried',
  'admin_request',
] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

export const isAuditEventType = (event: string): event is AuditEventType =>
  (AUDIT_EVENT_TYPES as readonly string[]).includes(event);

/**
 * The fields of an audit event as the API sends them, in the order a reader wants them. The
 * schema `auditEventViewSchema` is compile-checked to have exactly these keys.
 */
export const AUDIT_EVENT_FIELDS = [
  'id',
  'tenantId',
  'seq',
  'callId',
  'event',
  'tool',
  'implementation',
  'riskLevel',
  'agentType',
  'sessionId',
  'actor',
  'initiatorId',
  'approver',
  'bindingVersion',
  'definitionHash',
  'input',
  'outputSummary',
  'status',
  'code',
  'durationMs',
  'details',
  'occurredAt',
  'prevHash',
  'hash',
] as const;
export type AuditEventField = (typeof AUDIT_EVENT_FIELDS)[number];

/** Every `code` an error envelope may carry from the platform (tools may add their own). */
export const ERROR_CODES = [
  'INVALID_INPUT',
  'TIMEOUT',
  'UPSTREAM_ERROR',
  'OUTPUT_INVALID',
  'APPROVAL_PENDING',
  'APPROVAL_DENIED',
  'APPROVAL_EXPIRED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'TOOL_NOT_FOUND',
  // An imported upstream tool whose definition changed upstream, until an admin reviews it.
  'TOOL_QUARANTINED',
  // A tenant's rule on arguments and content refused the call (issue 26).
  'POLICY_DENIED',
  'IDEMPOTENCY_CONFLICT',
  'IDEMPOTENCY_IN_PROGRESS',
  'VERSION_CONFLICT',
  'ALREADY_EXISTS',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'AUDIT_UNAVAILABLE',
  'AUDIT_CHAIN_BROKEN',
  // A tenant's audit retention below the platform's floor (ADR 037).
  'RETENTION_BELOW_FLOOR',
  // dengbao3 profile (ADR 039): an act of another separated administrator; a second such role for one person.
  'DUTIES_SEPARATED',
  'ROLES_CONFLICT',
  'CONNECTOR_NOT_CONFIGURED',
  // PIPL 第38条: classified fields to a recipient outside mainland China without a legal basis.
  'DATA_EXPORT_BLOCKED',
  'NOT_READY',
  'INTERNAL_ERROR',
  // Agent runs: why a run failed.
  'MODEL_UNAVAILABLE',
  'MODEL_REJECTED',
  'STEP_LIMIT',
  'DEADLINE_EXCEEDED',
  'BUDGET_EXCEEDED',
  'RUN_CANCELLED',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
