import type { ToolPolicy } from '@toolgate/policy';
import {
  ErrorCode,
  exportTool,
  ToolgateError,
  type CallAbortSignal,
  type CallFace,
  type CallPrincipal,
  type ConnectorResolver,
  type EffectiveTool,
  type Locale,
  type MaybePromise,
  type ToolCallEvent,
  type ToolCallRequest,
  type ToolCallResult,
  type ToolExecutor,
  type ToolListFormat,
} from '@toolgate/toolkit';
import type { ResolvedAgentType } from '@toolgate/tenancy';

/** Per-call options of `Agent.invoke`. */
export interface AgentInvokeOptions {
  readonly locale: Locale;
  readonly sessionId?: string;
  /** The session of the run that delegated to this one (sub-agents): `ctx.session.parent`. */
  readonly parentSessionId?: string | null;
  readonly callId?: string;
  readonly signal?: CallAbortSignal;
  readonly onEvent?: (event: ToolCallEvent) => void;
  readonly clientIdempotencyKey?: string;
  /** The first run's call id when this run retries a call (see ToolCallRequest). */
  readonly idempotencyIdentity?: string;
  readonly messages?: readonly unknown[];
  readonly attributes?: Readonly<Record<string, unknown>>;
  readonly face?: CallFace;
  /** A W3C traceparent already checked with `isTraceparent`. */
  readonly traceparent?: string;
}

/** No tool hidden (no rules lib, or none that always refuse). */
const NOTHING_HIDDEN: ReadonlySet<string> = new Set();

/**
 * An agent of one tenant and agent type, acting for one principal: it sees exactly its bound tools
 * under their contract names and effective policy. An unbound tool and a missing one look the same.
 */
export class Agent {
  constructor(
    readonly binding: ResolvedAgentType,
    readonly principal: CallPrincipal,
    private readonly executor: ToolExecutor,
    private readonly connectors: ConnectorResolver,
    /**
     * The tenants' rules (issue 26), asked on the first listing which tools the principal's rules
     * refuse whatever the input; the policy itself, not a closure per agent (ADR 022's hot path).
     */
    private readonly policy?: ToolPolicy,
  ) {}

  private hidden?: ReadonlySet<string>;

  get tenantId(): string {
    return this.binding.tenantId;
  }

  get agentType(): string {
    return this.binding.agentType;
  }

  /** Bound tools this principal's rules refuse whatever the input: no listing shows them (issue 26). */
  hiddenTools(): ReadonlySet<string> {
    return (this.hidden ??= this.policy
      ? this.policy.hiddenTools(
          this.binding.tenantId,
          this.binding.agentType,
          this.binding.tools.values(),
          this.principal,
        )
      : NOTHING_HIDDEN);
  }

  /** The bound tools a listing shows: deferred ones only when asked for, none the rules always refuse. */
  tools(includeDeferred = false): EffectiveTool[] {
    const hidden = this.hiddenTools();
    return [...this.binding.tools.values()].filter(
      (t) => (includeDeferred || !t.contract.deferred) && !hidden.has(t.contract.name),
    );
  }

  /** The bound tools in a wire format. */
  describeTools(format: ToolListFormat, locale: Locale, includeDeferred = false): unknown[] {
    return this.tools(includeDeferred).map((t) => exportTool(t, format, locale));
  }

  /**
   * A bound tool by contract name; TOOL_NOT_FOUND otherwise. A bound imported tool that is blocked
   * answers its own code (TOOL_QUARANTINED, or TOOL_NOT_FOUND with the reason).
   */
  tool(name: string): EffectiveTool {
    const tool = this.binding.tools.get(name);
    if (tool) return tool;
    const blocked = this.binding.blocked?.get(name);
    throw new ToolgateError(blocked?.code ?? ErrorCode.TOOL_NOT_FOUND, {
      params: { tool: name, agentType: this.agentType },
      ...(blocked ? { details: { tool: name, reason: blocked.reason } } : {}),
    });
  }

  /**
   * Calls a bound tool through the governed pipeline (ToolExecutor.run): a plain result when the
   * call completes synchronously (the REST hot path, ADR 022), a promise otherwise. An unbound tool
   * throws (TOOL_NOT_FOUND) before anything runs.
   */
  invoke(name: string, input: unknown, options: AgentInvokeOptions): MaybePromise<ToolCallResult> {
    return this.executor.run(this.callRequest(name, input, options));
  }

  private callRequest(name: string, input: unknown, options: AgentInvokeOptions): ToolCallRequest {
    return {
      tool: this.tool(name),
      input,
      tenant: { id: this.tenantId },
      agentType: this.agentType,
      principal: this.principal,
      initiator: this.principal,
      sessionId: options.sessionId,
      parentSessionId: options.parentSessionId ?? null,
      callId: options.callId,
      locale: options.locale,
      messages: options.messages,
      signal: options.signal,
      onEvent: options.onEvent,
      connectors: this.connectors,
      clientIdempotencyKey: options.clientIdempotencyKey,
      idempotencyIdentity: options.idempotencyIdentity,
      attributes: options.attributes,
      face: options.face,
      traceparent: options.traceparent,
    };
  }

  /** The uniform signature of docs/tool-design-rules.md §A1 for one bound tool: `(input) => Promise<string>`. */
  callable(name: string, options: AgentInvokeOptions): (input: unknown) => Promise<string> {
    return async (input) => JSON.stringify((await this.invoke(name, input, options)).envelope);
  }
}
