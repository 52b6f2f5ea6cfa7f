/** Shapes of the Toolgate REST API the console reads and writes (CONTRACT.md). */

export type Role = 'platform_admin' | 'tenant_admin' | 'approver' | 'auditor' | 'agent';
export const RISK_LEVELS = ['L0', 'L1', 'L2', 'L3'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];
export type ApprovalMode = 'never' | 'once' | 'always';

/** `GET /v1/me`. */
export interface Principal {
  readonly principalId: string;
  readonly name: string;
  readonly role: Role;
  readonly tenantId: string | null;
  readonly agentTypes: readonly string[] | null;
}

/** One problem of a request body: `details.issues[]` of an INVALID_INPUT answer. */
export interface Issue {
  readonly path: string;
  readonly message: string;
}

/** An item of `GET /v1/admin/tools`. */
export interface CatalogTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: unknown;
  readonly outputSchema?: unknown;
  readonly risk: {
    readonly level: RiskLevel;
    readonly approvalRequired: boolean;
    readonly dataDomains: readonly string[];
    readonly estimatedDurationMs?: number;
  };
  readonly timeoutMs: number;
  readonly approval: ApprovalMode;
  readonly deferred: boolean;
  readonly endsTurn?: boolean;
  readonly availableInSubagents?: boolean;
  readonly dynamic: boolean;
  readonly contractHash: string;
  readonly implementations: readonly { name: string; source: string; definitionHash: string }[];
  readonly boundBy: readonly {
    tenantId: string;
    agentType: string;
    implementation: string | null;
    version: number;
  }[];
}

export interface Tenant {
  readonly id: string;
  readonly name: string;
  readonly locale: string;
  readonly demo: boolean;
  readonly connectors: readonly string[];
  readonly settings: Record<string, unknown>;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** One entry of a binding: a tool and the overrides that tighten it. */
export interface BindingTool {
  name: string;
  implementation?: string;
  timeoutMs?: number;
  approval?: ApprovalMode;
}

export interface BindingView {
  readonly agentType: string;
  readonly description: string;
  readonly version: number;
  readonly tools: readonly BindingTool[];
  readonly updatedAt: string;
  readonly updatedBy: string;
}

export interface BindingDiff {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly { name: string; from: BindingTool; to: BindingTool }[];
}

export interface EffectiveTool {
  readonly name: string;
  readonly description: string;
  readonly implementation: string;
  readonly riskLevel: RiskLevel;
  readonly dataDomains: readonly string[];
  readonly timeoutMs: number;
  readonly declaredTimeoutMs: number;
  readonly approval: ApprovalMode;
  readonly declaredApproval: ApprovalMode;
}

export interface BindingPreview {
  readonly agentType: string;
  readonly currentVersion: number;
  readonly effective: readonly EffectiveTool[];
  readonly problems: readonly Issue[];
  readonly diff: BindingDiff;
}

export interface BindingHistoryEntry {
  readonly agentType: string;
  readonly version: number;
  readonly kind: 'import' | 'update' | string;
  readonly changedBy: string;
  readonly changedAt: string;
  readonly tools: readonly BindingTool[];
  readonly diff?: BindingDiff;
}

export interface ImportResult {
  readonly tenantId: string;
  readonly changed: readonly string[];
  readonly unchanged: readonly string[] | number;
}

export interface ApiKeyView {
  readonly id: string;
  readonly name: string;
  readonly role: Role;
  readonly tenantId: string | null;
  readonly agentTypes: readonly string[] | null;
  readonly prefix: string;
  readonly createdAt: string;
  readonly createdBy: string | null;
  readonly revokedAt: string | null;
}

export interface CreatedKey extends ApiKeyView {
  /** The secret: shown this once. */
  readonly key: string;
}

export interface NewKey {
  name: string;
  role: Role;
  tenantId?: string;
  agentTypes?: string[];
}

export interface AuditEvent {
  readonly id: string;
  readonly tenantId: string;
  readonly seq: number;
  readonly callId: string | null;
  readonly event: string;
  readonly tool: string | null;
  readonly implementation?: string | null;
  readonly riskLevel: RiskLevel | null;
  readonly agentType: string | null;
  readonly sessionId: string | null;
  readonly actor: { readonly type: string; readonly id: string };
  readonly approver?: { readonly id: string } | null;
  readonly input?: unknown;
  readonly outputSummary?: unknown;
  readonly status?: 'ok' | 'error' | null;
  readonly code?: string | null;
  readonly durationMs?: number | null;
  readonly details?: unknown;
  readonly occurredAt: string;
  readonly prevHash: string;
  readonly hash: string;
  readonly [more: string]: unknown;
}

/** Filters of `GET /v1/audit/events` and `/export`. */
export interface AuditFilter {
  tenantId?: string;
  tool?: string;
  riskLevel?: RiskLevel;
  actorId?: string;
  status?: 'ok' | 'error';
  code?: string;
  event?: string;
  callId?: string;
  from?: string;
  to?: string;
}

export interface AuditPage {
  readonly items: readonly AuditEvent[];
  readonly nextCursor: string | null;
}

export interface CallStory {
  readonly callId: string;
  readonly complete: boolean;
  readonly events: readonly AuditEvent[];
}

export interface IncompleteCall {
  readonly callId: string;
  readonly tenantId: string;
  readonly tool: string;
  readonly instanceId: string;
  readonly startedAt: string;
}

export interface TenantVerification {
  readonly tenantId: string;
  readonly ok: boolean;
  readonly checked: number;
  readonly checkpoints?: number;
  readonly firstBrokenEventId?: string;
  readonly firstBrokenSeq?: number;
  readonly problem?: string;
}

export interface Verification {
  readonly ok: boolean;
  readonly checked: number;
  readonly firstBrokenEventId?: string;
  readonly problem?: string;
  readonly tenants: readonly TenantVerification[];
}

export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'expired';

export interface ApprovalDecision {
  readonly approverId: string;
  readonly decision: 'approve' | 'deny' | string;
  readonly comment: string | null;
  readonly decidedAt: string;
}

export interface Approval {
  readonly approvalId: string;
  readonly callId: string;
  readonly tenantId: string;
  readonly agentType: string;
  readonly tool: string;
  readonly implementation: string;
  readonly riskLevel: RiskLevel;
  readonly prompt: string;
  readonly input: unknown;
  readonly requestedBy: string;
  readonly status: ApprovalStatus;
  readonly requiredApprovals: number;
  readonly decisions: readonly ApprovalDecision[];
  readonly createdAt: string;
  readonly expiresAt: string;
}

export type CallStatus =
  'pending_approval' | 'running' | 'succeeded' | 'failed' | 'denied' | 'expired' | 'interrupted';

export interface CallState {
  readonly callId: string;
  readonly status: CallStatus;
  readonly result?: unknown;
}

export interface DecisionResult {
  readonly approval: Approval;
  readonly call: CallState;
}

export interface StatsBucket {
  readonly start: string;
  readonly tenantId: string;
  readonly tool: string;
  readonly calls: number;
  readonly errors: number;
  readonly p95Ms: number | null;
}

export interface Stats {
  readonly buckets: readonly StatsBucket[];
  readonly pendingApprovals: number;
  readonly incompleteCalls: number;
}
