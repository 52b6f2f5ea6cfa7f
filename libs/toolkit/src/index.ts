// Public surface of the toolkit: define tools, run them, export their schemas.
export {
  DEFAULT_IMPLEMENTATION,
  DEFAULT_TIMEOUT_MS,
  MAX_INPUT_DEPTH,
  MAX_TIMEOUT_MS,
  TOOL_NAME_PATTERN,
} from './constants.js';
export { always, isAtLeastAsStrict, never, once, APPROVAL_MODES } from './definition/approval-policy.js';
export type { ApprovalConfig, ApprovalMode, ApprovalPolicy } from './definition/approval-policy.js';
export { defineConnector } from './definition/define-connector.js';
export type { ConnectorDefinition } from './definition/define-connector.js';
export { defineTool, defineToolContract } from './definition/define-tool.js';
export type { ToolContract, TypedDeclaration } from './definition/define-tool.js';
export { sensitive, sensitivePaths } from './definition/sensitive.js';
export type { FieldPath } from './definition/sensitive.js';
export { Tool, UngovernedToolCallError } from './definition/tool.decorator.js';
export { RISK_LEVELS } from './definition/tool-definition.js';
export type {
  InferSchema,
  JsonSchemaObject,
  RiskLevel,
  ToolDeclaration,
  ToolDefinition,
  ToolLabel,
  ToolModelOutput,
  ToolOutputPart,
  ToolResult,
  ToolRisk,
  ToolSchema,
} from './definition/tool-definition.js';
export { isOk, ok } from './errors/envelope.js';
export type { Envelope, ErrorEnvelope, OkEnvelope } from './errors/envelope.js';
export {
  ErrorCode,
  ERROR_CODE_PATTERN,
  PLATFORM_RESERVED_CODES,
  TOOL_OUTCOME_CODES,
} from './errors/error-codes.js';
export { cleanErrorMessage, envelopeForThrown } from './errors/error-mapping.js';
export { catalogMessage, DEFAULT_LOCALE, resolveLocale, SUPPORTED_LOCALES } from './errors/messages.js';
export type { Locale } from './errors/messages.js';
export {
  errorEnvelope,
  ToolCallFailedError,
  ToolDefinitionError,
  ToolError,
  ToolgateError,
} from './errors/toolgate-error.js';
export { HookOrder, ToolCallHookProvider } from './execution/call-hooks.js';
export type { ToolCallHook, ToolCallHookOptions } from './execution/call-hooks.js';
export { findUnstorableInput } from './execution/input-guard.js';
export { humanizeToolName } from './execution/labels.js';
export { guardOutput } from './execution/output-guard.js';
export { isRetryable, withRetry } from './execution/retry.js';
export type { RetryOptions } from './execution/retry.js';
export type {
  CallStage,
  EffectiveTool,
  LateOutcome,
  ToolCall,
  ToolCallEvent,
  ToolCallRequest,
  ToolCallResult,
  ToolCallStop,
} from './execution/tool-call.js';
export { SYSTEM_PRINCIPAL } from './execution/tool-context.js';
export type {
  CallPrincipal,
  ConnectorResolver,
  SessionInfo,
  TenantRef,
  ToolContext,
} from './execution/tool-context.js';
export { ToolExecutor, ToolTimeoutError } from './execution/tool-executor.js';
export type { NormalizedRisk, RegisteredTool, ToolImplementation } from './registry/registered-tool.js';
export { ConnectorRegistry } from './registry/connector-registry.js';
export type { RegisteredConnector } from './registry/connector-registry.js';
export { ToolRegistry } from './registry/tool-registry.js';
export { compileSchema, createAjv } from './schema/compiled-schema.js';
export type { CompiledSchema, SchemaCheck } from './schema/compiled-schema.js';
export type { InputIssue } from './schema/input-issue.js';
export { invalidInputEnvelope, renderIssue, summarizeIssues } from './schema/issue-messages.js';
export { SchemaExportError, toJsonSchema } from './schema/json-schema.js';
export { exportTool, modelDescription, TOOL_LIST_FORMATS, toJsonSchemaItem } from './schema/tool-formats.js';
export type { ToolListFormat, ToolView } from './schema/tool-formats.js';
export { TOOLKIT_OPTIONS } from './toolkit.options.js';
export type { ToolkitOptions } from './toolkit.options.js';
export { ToolkitModule } from './toolkit.module.js';
export { canonicalJson, sha256Hex } from './util/canonical-json.js';
export { uuidv7 } from './util/ids.js';
