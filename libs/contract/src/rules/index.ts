// The contract's plain values and pure rules: no Zod, safe for the console bundle.
export { ADMIN_POWERS, mayUse, POWER_RULES, powersOf } from './admin-powers.js';
export type { AdminPower, PowerRule } from './admin-powers.js';
export { AGENT_INSTRUCTIONS_MAX, AGENT_RUN_LIMITS, AGENT_SUB_AGENTS_MAX } from './agent-run-limits.js';
export { allowedApprovals, isAtLeastAsStrict } from './approval-order.js';
export { diffBindings, isEmptyDiff, withoutUnsetFields } from './binding-diff.js';
export { RULE_LIMIT_WINDOWS_MS, RULE_LIMITS } from './rule-limits.js';
export {
  isTenantEnvName,
  MAX_SECRET_ENV_LENGTH,
  namespacedEnvName,
  SECRET_FAMILIES,
  tenantEnvNamespace,
} from './secret-namespaces.js';
export type { SecretFamily } from './secret-namespaces.js';
export type {
  BindingDiff,
  BindingTool,
  GuardrailCheck,
  GuardrailPii,
  RuleLimit,
  RuleMask,
  RuleOutcome,
  ToolGuardrails,
  ToolRule,
} from './binding-diff.js';
export {
  APPROVAL_MODES,
  APPROVAL_STATUSES,
  AUDIT_EVENT_FIELDS,
  AUDIT_EVENT_TYPES,
  CALL_FACES,
  CALL_STATUSES,
  ERROR_CODES,
  isAuditEventType,
  LOCALES,
  PI_CLASSES,
  RISK_LEVELS,
  isSeparatedRole,
  ROLES,
  RUN_EVENT_TYPES,
  SEPARATED_ROLES,
  TENANT_BOUND_ROLES,
  RUN_STATUSES,
  TOOL_LIST_FORMATS,
} from './vocabulary.js';
export type {
  ApprovalMode,
  ApprovalStatus,
  AuditEventField,
  AuditEventType,
  CallFace,
  CallStatus,
  ErrorCode,
  Locale,
  PiClass,
  RiskLevel,
  Role,
  RunEventType,
  SeparatedRole,
  RunStatus,
  ToolListFormat,
} from './vocabulary.js';
