/**
 * Shapes of the Toolgate REST API the console reads and writes: the gateway's own contract
 * (libs/contract, docs/CONTRACT.md), imported, never copied. Types only — the contract's Zod
 * schemas stay out of the bundle; plain values come from its Zod-free `rules` entry.
 */
import type { RiskLevel, RunStatus } from '@toolgate/contract';

export { RISK_LEVELS, RUN_STATUSES } from '@toolgate/contract/rules';
export type {
  AgentRunSettingsView as AgentRunSettings,
  ApiKeyView,
  ApprovalDecision,
  ApprovalMode,
  ApprovalStatus,
  ApprovalView as Approval,
  AuditEventView as AuditEvent,
  AuditPage,
  BindingDiff,
  BindingHistoryEntry,
  BindingPreview,
  BindingTool,
  BindingView,
  CallState,
  CallStatus,
  CallStory,
  CatalogTool,
  CreatedKey,
  CreateKeyBody as NewKey,
  DecisionResult,
  EffectiveTool,
  ImportResult,
  IncompleteCall,
  Issue,
  PreviewBindingsBody,
  PrincipalView as Principal,
  ReplaceBindingsBody,
  RiskLevel,
  Role,
  RunEvent,
  RunPage,
  RunStats,
  RunStatsRow,
  RunStatus,
  RunStep,
  RunToolCall,
  RunUsage,
  RunView,
  Stats,
  StatsBucket,
  TenantTokenDay,
  TenantView as Tenant,
  TenantVerification,
  Verification,
} from '@toolgate/contract';

/** Filters of `GET /v1/audit/events` and `/export`, as the console keeps them in the address bar. */
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

/** Filters of `GET /v1/runs`, as the console keeps them in the address bar. */
export interface RunFilter {
  /** Platform admins only: the tenant whose runs to list. */
  tenantId?: string;
  agentType?: string;
  status?: RunStatus;
  sessionId?: string;
}
