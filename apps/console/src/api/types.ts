/**
 * Shapes of the Toolgate REST API the console reads and writes: the gateway's own contract
 * (libs/contract, docs/CONTRACT.md), imported, never copied. Types only — the contract's Zod
 * schemas stay out of the bundle; plain values come from its Zod-free `rules` entry.
 */
import type {
  CallStatus,
  importUpstreamResultSchema,
  RiskLevel,
  RunStatus,
  registerUpstreamResultSchema,
  upstreamDetailSchema,
  upstreamLiveToolSchema,
  upstreamToolDefinitionSchema,
  upstreamToolDiffSchema,
} from '@toolgate/contract';
import type { z } from 'zod';

export { RISK_LEVELS, RUN_STATUSES } from '@toolgate/contract/rules';
export type {
  AgentRunSettingsView as AgentRunSettings,
  ApiKeyView,
  ApprovalContext,
  ApprovalDecision,
  ApprovalMode,
  ApprovalStatus,
  ApprovalView as Approval,
  AuditCall,
  AuditCallPage,
  AuditEventView as AuditEvent,
  AuditPage,
  AuditPerson,
  AuditPrincipal,
  AuditSink,
  AuditSinks,
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
  ImportedToolView as ImportedUpstreamTool,
  ImportResult,
  ImportUpstreamToolsBody,
  IncompleteCall,
  Issue,
  PreviewBindingsBody,
  PrincipalView as Principal,
  RefreshUpstreamResult,
  RegisterUpstreamBody,
  ReplaceBindingsBody,
  ReviewUpstreamToolBody,
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
  UpstreamView as Upstream,
  Verification,
  VerifyJob,
  ToolCallCheck,
  ProcessingRecordEntry,
} from '@toolgate/contract';

// Upstream answers the contract names as schemas only: their shapes, inferred (types, no Zod at run time).
export type RegisteredUpstream = z.infer<typeof registerUpstreamResultSchema>;
export type UpstreamDetail = z.infer<typeof upstreamDetailSchema>;
export type UpstreamLiveTool = z.infer<typeof upstreamLiveToolSchema>;
export type UpstreamToolDefinition = z.infer<typeof upstreamToolDefinitionSchema>;
export type UpstreamToolDiff = z.infer<typeof upstreamToolDiffSchema>;
export type UpstreamImportResult = z.infer<typeof importUpstreamResultSchema>;
/** Where an imported upstream tool stands: callable, blocked until reviewed, or gone upstream. */
export type UpstreamToolStatus = UpstreamToolDiff['status'];

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

/** Filters of `GET /v1/audit/calls`, as the console keeps them in the address bar. */
export interface AuditCallFilter {
  tenantId?: string;
  agentType?: string;
  tool?: string;
  target?: string;
  person?: string;
  state?: CallStatus;
  code?: string;
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
