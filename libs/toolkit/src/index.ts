// Every export is public API of @toolgate/toolkit: what tool authors, the gateway and the other libs use. Tests reach
// internals through `@toolgate/toolkit/testing`. The tool lifecycle is described in
// definition/tool-definition.ts and docs/tools.md.

// Writing tools.
export { always, never, once } from './definition/approval-policy.js';
export type { ApprovalMode } from './definition/approval-policy.js';
export { defineConnector } from './definition/define-connector.js';
export { defineToolContract } from './definition/define-tool-contract.js';
export type { ToolBody, ToolContract } from './definition/define-tool-contract.js';
export { sensitive } from './definition/sensitive.js';
export type { MarkedField, PiClass } from './definition/sensitive.js';
export { Tool } from './definition/tool.decorator.js';
export type {
  ToolDeclaration,
  ToolDefinition,
  ToolModelOutput,
  ToolSchema,
} from './definition/tool-definition.js';
export type { ToolContext, CallPrincipal, ConnectorResolver } from './execution/tool-context.js';
export { isRetryable, withRetry } from './execution/retry.js';

// Envelopes, errors and messages.
export { isOk, ok } from './errors/envelope.js';
export type { Envelope, ErrorEnvelope } from './errors/envelope.js';
export { ErrorCode } from './errors/error-codes.js';
export { cleanErrorMessage } from './errors/error-mapping.js';
export { DEFAULT_LOCALE, mcpMessage, resolveLocale } from './errors/messages.js';
export type { Locale } from './errors/messages.js';
export { errorEnvelope, ToolCallFailedError, ToolError, ToolgateError } from './errors/toolgate-error.js';

// Running tools: registry, executor and the pipeline hooks.
export { MAX_INPUT_DEPTH } from './constants.js';
export { HookOrder, ToolCallHookProvider } from './execution/call-hooks.js';
export { replaceCallInput, rewriteCallOutput } from './execution/call-rewrites.js';
export {
  guardrailFindingsOf,
  noteGuardrailFinding,
  notePolicyDecision,
  policyDecisionDetails,
  policyDecisionOf,
} from './execution/policy-decision.js';
export type { GuardrailFinding, PolicyDecision } from './execution/policy-decision.js';
export type { ToolCallHook } from './execution/call-hooks.js';
export { humanizeToolName } from './execution/labels.js';
export type {
  CallFace,
  EffectiveTool,
  LateOutcome,
  ToolCall,
  ToolCallEvent,
  ToolCallRequest,
  CallAbortSignal,
  ToolCallResult,
  ToolCallStop,
} from './execution/tool-call.js';
export { ToolExecutor } from './execution/tool-executor.js';
export { ConnectorRegistry } from './registry/connector-registry.js';
export { ToolRegistry } from './registry/tool-registry.js';
export { checkContract } from './registry/definition-rules.js';
export type {
  ImplementationRecipient,
  RegisteredContract,
  ToolImplementation,
} from './registry/registered-contract.js';
export { ToolkitModule } from './toolkit.module.js';

// Schemas and tool lists.
export { compileSchema } from './schema/compiled-schema.js';
export type { CompiledSchema } from './schema/compiled-schema.js';
export type { InputIssue } from './schema/input-issue.js';
export { invalidInputEnvelope } from './schema/issue-messages.js';
export { toJsonSchema } from './schema/json-schema.js';
export { exportTool, toJsonSchemaItem } from './schema/tool-formats.js';
export type { ToolListFormat } from './schema/tool-formats.js';

// Utilities the other libs share.
export { canonicalJson, sha256Hex } from './util/canonical-json.js';
export { uuidv7 } from './util/ids.js';
export { andThen } from './util/and-then.js';
export type { MaybePromise } from './util/and-then.js';
export { settled } from './util/settled.js';
