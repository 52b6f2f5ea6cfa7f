// Every export is public API of @toolgate/contract: the REST API's shapes (docs/CONTRACT.md) as Zod schemas and
// the types inferred from them, plus the plain vocabulary and pure rules (also at
// `@toolgate/contract/rules`, which the console imports to keep Zod out of its bundle).
export {
  AUDIT_EVENT_TYPES,
  diffBindings,
  isAtLeastAsStrict,
  ROLES,
  RUN_STATUSES,
  TENANT_BOUND_ROLES,
  withoutUnsetFields,
} from './rules/index.js';
export type {
  ApprovalMode,
  ApprovalStatus,
  AuditEventType,
  BindingDiff,
  BindingTool,
  CallStatus,
  ErrorCode,
  Locale,
  RiskLevel,
  Role,
  RunEventType,
  RunStatus,
} from './rules/index.js';
export {
  approvalListQuery,
  approvalViewSchema,
  approveBody,
  callReadSchema,
  decisionResultSchema,
  denyBody,
} from './schemas/approvals.schema.js';
export type {
  ApprovalDecision,
  ApprovalListQuery,
  ApprovalView,
  ApproveBody,
  CallRead,
  CallState,
  DecisionResult,
  DenyBody,
} from './schemas/approvals.schema.js';
export {
  approvalContextSchema,
  auditCallPageSchema,
  auditEventViewSchema,
  auditPageSchema,
  auditPrincipalSchema,
  auditPublicKeysSchema,
  callStorySchema,
  checkpointExportSchema,
  checkpointSchema,
  checkpointTenantQuery,
  incompleteCallSchema,
  verificationSchema,
  verifyJobSchema,
} from './schemas/audit.schema.js';
export type {
  ApprovalContext,
  AuditCall,
  AuditCallPage,
  AuditEventView,
  AuditPage,
  AuditPerson,
  AuditPrincipal,
  CallStory,
  Checkpoint,
  CheckpointExport,
  CheckpointTenantQuery,
  IncompleteCall,
  TenantVerification,
  Verification,
} from './schemas/audit.schema.js';
export {
  agentRunSettingsInput,
  agentTypeParam,
  bindingDiffSchema,
  bindingHistoryEntrySchema,
  bindingPreviewSchema,
  bindingToolEntrySchema,
  bindingToolSchema,
  bindingViewSchema,
  DEFAULT_AGENT_RUN_SETTINGS,
  historyQuery,
  previewBindingsBody,
  replaceBindingsBody,
} from './schemas/bindings.schema.js';
export type {
  AgentRunSettingsView,
  BindingHistoryEntry,
  BindingPreview,
  BindingView,
  EffectiveTool,
  HistoryQuery,
  PreviewBindingsBody,
  ReplaceBindingsBody,
} from './schemas/bindings.schema.js';
export { AGENT_TYPE, TENANT_ID } from './schemas/common.schema.js';
export type { Issue } from './schemas/common.schema.js';
export type { ErrorEnvelope } from './schemas/envelope.schema.js';
export { componentRef, contractComponentSchemas } from './schemas/json-schema.js';
export { apiKeyViewSchema, createdKeySchema, createKeyBody } from './schemas/keys.schema.js';
export type { ApiKeyView, CreatedKey, CreateKeyBody } from './schemas/keys.schema.js';
export {
  healthSchema,
  principalViewSchema,
  signedOutSchema,
  signInProvidersSchema,
} from './schemas/me.schema.js';
export type { PrincipalView, SignInProviders } from './schemas/me.schema.js';
export {
  runEventSchema,
  runListQuery,
  runPageSchema,
  runViewSchema,
  sessionRunsSchema,
  startRunBodySchema,
} from './schemas/runs.schema.js';
export type {
  RunEvent,
  RunListQuery,
  RunPage,
  RunStep,
  RunToolCall,
  RunUsage,
  RunView,
  SessionRuns,
  StartRunBody,
} from './schemas/runs.schema.js';
export { statsQuery, statsSchema } from './schemas/stats.schema.js';
export type {
  RunStats,
  RunStatsRow,
  Stats,
  StatsBucket,
  StatsQuery,
  TenantTokenDay,
} from './schemas/stats.schema.js';
export {
  createTenantBody,
  importResultSchema,
  importTenantBody,
  tenantDetailSchema,
  tenantViewSchema,
} from './schemas/tenants.schema.js';
export type {
  CreateTenantBody,
  ImportResult,
  ImportTenantBody,
  TenantDetail,
  TenantView,
} from './schemas/tenants.schema.js';
export {
  agentTypeSummarySchema,
  catalogToolSchema,
  invokeBody,
  invokeQuery,
  toolListItemSchema,
  toolListQuery,
} from './schemas/tools.schema.js';
export type {
  AgentModelInfo,
  AgentTypeSummary,
  CatalogTool,
  InvokeBody,
  InvokeQuery,
  JsonSchemaTool,
  ToolListQuery,
} from './schemas/tools.schema.js';
export {
  deletedUpstreamSchema,
  importedToolSchema,
  importUpstreamResultSchema,
  importUpstreamToolsBody,
  refreshUpstreamResultSchema,
  registerUpstreamBody,
  registerUpstreamResultSchema,
  reviewUpstreamToolBody,
  updateUpstreamBody,
  upstreamDetailSchema,
  upstreamLiveToolSchema,
  upstreamToolDefinitionSchema,
  upstreamToolDiffSchema,
  upstreamViewSchema,
} from './schemas/upstreams.schema.js';
export type {
  ImportedToolView,
  ImportUpstreamToolsBody,
  RefreshUpstreamResult,
  RegisterUpstreamBody,
  ReviewUpstreamToolBody,
  UpdateUpstreamBody,
  UpstreamView,
} from './schemas/upstreams.schema.js';
export type { AdminPower } from './rules/admin-powers.js';
export type { AuditDeadLettersQuery } from './schemas/audit-sinks.schema.js';
export type { AuditSinks } from './schemas/audit-sinks.schema.js';
export type { ChangeKeyOwnerBody } from './schemas/keys.schema.js';
export type { CheckToolCallBody } from './schemas/policy.schema.js';
export type { LegalHoldBody } from './schemas/retention.schema.js';
export type { ProcessingRecordEntry } from './schemas/tenants.schema.js';
export type { RetentionQuery } from './schemas/retention.schema.js';
export { SEPARATED_ROLES } from './rules/vocabulary.js';
export type { SeparatedRole } from './rules/vocabulary.js';
export type { SetRetentionBody } from './schemas/retention.schema.js';
export type { TenantRetention } from './schemas/retention.schema.js';
export type { ToolCallCheck } from './schemas/policy.schema.js';
export { auditDeadLettersQuery } from './schemas/audit-sinks.schema.js';
export { auditDeadLettersSchema } from './schemas/audit-sinks.schema.js';
export { auditSinksSchema } from './schemas/audit-sinks.schema.js';
export { changeKeyOwnerBody } from './schemas/keys.schema.js';
export { adminCheckToolCallBody, checkToolCallBody } from './schemas/policy.schema.js';
export type { AdminCheckToolCallBody } from './schemas/policy.schema.js';
export { isSeparatedRole } from './rules/vocabulary.js';
export { legalHoldBody } from './schemas/retention.schema.js';
export { mayUse } from './rules/admin-powers.js';
export { processingRecordSchema } from './schemas/tenants.schema.js';
export { retentionQuery } from './schemas/retention.schema.js';
export { setRetentionBody } from './schemas/retention.schema.js';
export { tenantRetentionSchema } from './schemas/retention.schema.js';
export { toolCallCheckSchema } from './schemas/policy.schema.js';
export type { AuditSink } from './schemas/audit-sinks.schema.js';
export type { VerifyJob } from './schemas/audit.schema.js';
