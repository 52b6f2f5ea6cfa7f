import type { ToolGuardrails, ToolRule } from '@toolgate/contract/rules';
import type { ApprovalMode } from '../definition/approval-policy.js';
import type { ToolModelOutput } from '../definition/tool-definition.js';
import type { Envelope, ErrorEnvelope } from '../errors/envelope.js';
import type { Locale } from '../errors/messages.js';
import type { InputIssue } from '../schema/input-issue.js';
import type { RegisteredContract, ToolImplementation } from '../registry/registered-contract.js';
import type { CallPrincipal, ConnectorResolver, TenantRef, ToolContext } from './tool-context.js';

/**
 * A tool bound for one caller (stage 3 of the lifecycle in tool-definition.ts): the contract, the
 * implementation its binding picked, and the effective policy after the tenant's (tighten-only)
 * overrides.
 */
export interface EffectiveTool {
  readonly contract: RegisteredContract;
  readonly implementation: ToolImplementation;
  readonly timeoutMs: number;
  readonly approval: ApprovalMode;
  /** The binding version in force, or null for calls outside any binding (in-process, system). */
  readonly bindingVersion: number | null;
  /** The tenant's rules on this tool's calls (issue 26), as written in the binding; absent: none. */
  readonly rules?: readonly ToolRule[];
  /** The tenant's content guardrails on this tool (issue 26, ADR 045); absent: none. */
  readonly guardrails?: ToolGuardrails;
}

/** A partial result or activity text of a running call, for streaming clients. */
export type ToolCallEvent =
  | { readonly type: 'label'; readonly phase: 'start' | 'delta' | 'complete'; readonly text: string }
  | { readonly type: 'partial'; readonly data: unknown };

/** Which face of the gateway a call came through: REST invoke, MCP `tools/call`, or an agent run. */
export type CallFace = 'rest' | 'mcp' | 'run';

/** Everything the executor needs to run one call. All of it comes from the platform, none from the body. */
export interface ToolCallRequest {
  readonly tool: EffectiveTool;
  readonly input: unknown;
  readonly tenant: TenantRef | null;
  readonly agentType: string | null;
  readonly principal: CallPrincipal | null;
  readonly initiator?: CallPrincipal | null;
  readonly sessionId?: string;
  readonly turnId?: string;
  readonly parentSessionId?: string | null;
  readonly callId?: string;
  readonly locale: Locale;
  readonly messages?: readonly unknown[];
  /** Set when resuming a call a person approved: the approval gate is not asked again. */
  readonly approval?: { readonly responder: CallPrincipal } | null;
  /** The caller went away. */
  readonly signal?: CallAbortSignal;
  readonly onEvent?: (event: ToolCallEvent) => void;
  readonly connectors?: ConnectorResolver;
  /** The client's Idempotency-Key header, when it sent one. */
  readonly clientIdempotencyKey?: string;
  /**
   * The identity of the logical call when this run re-runs it (a retry after a crash): the call
   * id of the first run. `ctx.idempotencyKey` derives from it, so the upstream sees the same key.
   */
  readonly idempotencyIdentity?: string;
  /** Free-form facts the caller wants hooks to see (e.g. the API key id). */
  readonly attributes?: Readonly<Record<string, unknown>>;
  /** The face the call came through; absent for in-process and system calls. */
  readonly face?: CallFace;
  /**
   * The caller's W3C trace context (`traceparent`), already checked for format, so the tracing
   * issue can continue the caller's trace. Never trusted for anything else.
   */
  readonly traceparent?: string;
}

/** Where in the pipeline a call ended. */
export type CallStage = 'refused' | 'invalid' | 'stopped' | 'executed' | 'timed_out';

/**
 * Who produced a failure: the tool's own code (`tool`) or the platform around it (`platform`:
 * validation, approval, audit, quotas, time limit, output checks). Only platform failures may
 * carry a status other than 200 (CONTRACT.md): a tool's code never makes a client wait or retry.
 */
export type ErrorOrigin = 'tool' | 'platform';

/** The outcome of a call. */
export interface ToolCallResult {
  readonly callId: string;
  readonly envelope: Envelope;
  readonly stage: CallStage;
  /** Set on failures: where the error envelope came from. */
  readonly errorOrigin?: ErrorOrigin;
  /** The full output on success (REST clients get this), and its model projection if the tool has one. */
  readonly output?: unknown;
  readonly modelOutput?: ToolModelOutput;
  readonly durationMs: number;
  readonly issues?: readonly InputIssue[];
}

/** A call on its way through the pipeline, as hooks see it (stage 4 of the tool lifecycle). */
export interface ToolCall {
  readonly id: string;
  readonly request: ToolCallRequest;
  readonly tool: EffectiveTool;
  readonly ctx: ToolContext;
  /** The input as sent. */
  readonly rawInput: unknown;
  /** The validated input with defaults filled in; undefined when validation failed. */
  readonly input: unknown;
  /** Epoch ms when the call entered the pipeline. */
  readonly startedAt: number;
  /** Hooks keep their own per-call state here, under their own symbol (made on first use). */
  readonly state: Map<symbol, unknown>;
}

/** What a `beforeExecute` hook returns to stop a call before the tool runs. */
export interface ToolCallStop {
  readonly envelope: ErrorEnvelope;
}

/** What a call that timed out did in the end. */
export type LateOutcome =
  | { readonly status: 'ok'; readonly output: unknown; readonly durationMs: number }
  | { readonly status: 'error'; readonly envelope: ErrorEnvelope; readonly durationMs: number };

/**
 * What the pipeline reads of a caller's abort signal: an AbortSignal is one. The REST route passes
 * a lighter object (one `close` listener on the response) because an AbortController per call was
 * ~4% of the governed L0 route's CPU in the profile, for the rare client that leaves early.
 */
export interface CallAbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
