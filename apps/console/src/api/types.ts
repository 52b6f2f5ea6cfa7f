/**
 * Shapes of the Toolgate REST API the console reads and writes: the gateway's own contract
 * (libs/contract, docs/CONTRACT.md), imported, never copied. Types only — the contract's Zod
 * schemas stay out of the bundle; plain values come from its Zod-free `rules` entry.
 */
import type { RiskLevel } from '@toolgate/contract';

export { RISK_LEVELS } from '@toolgate/contract/rules';
export type {
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
  PrincipalView as Principal,
  RiskLevel,
  Role,
  Stats,
  StatsBucket,
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
