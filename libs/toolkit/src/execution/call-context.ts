import type { ConnectorDefinition } from '../definition/define-connector.js';
import { ErrorCode } from '../errors/error-codes.js';
import type { Locale } from '../errors/messages.js';
import { ToolgateError } from '../errors/toolgate-error.js';
import type { ToolCallRequest } from './tool-call.js';
import type { CallPrincipal, SessionInfo, TenantRef, ToolContext } from './tool-context.js';

/**
 * The `ctx` a tool body receives. The AbortController is made on first use of `abortSignal`, so
 * calls that never look at it do not pay for one.
 */
export class CallContext implements ToolContext {
  private controller?: AbortController;
  private abortReason?: unknown;
  private sessionInfo?: SessionInfo;

  constructor(
    readonly callId: string,
    /** The request this context was made for; nested in-process calls inherit from it. */
    readonly request: ToolCallRequest,
  ) {}

  // Everything below is read from the request on demand: most tools look at little of it, and the
  // hot path of a cheap call should not pay for building what nobody reads.
  get session(): SessionInfo {
    if (!this.sessionInfo) {
      const r = this.request;
      this.sessionInfo = {
        id: r.sessionId ?? this.callId,
        turn: { id: r.turnId ?? this.callId },
        auth: { current: r.principal, initiator: r.initiator ?? r.principal },
        parent: r.parentSessionId ? { id: r.parentSessionId } : null,
      };
    }
    return this.sessionInfo;
  }

  get tenant(): TenantRef | null {
    return this.request.tenant;
  }

  get agentType(): string | null {
    return this.request.agentType;
  }

  get toolName(): string {
    return this.request.tool.contract.name;
  }

  get implementation(): string {
    return this.request.tool.implementation.name;
  }

  get idempotencyKey(): string {
    return `${this.request.sessionId ?? this.callId}:${this.request.idempotencyIdentity ?? this.callId}`;
  }

  get approval(): { readonly responder: CallPrincipal } | null {
    return this.request.approval ?? null;
  }

  get locale(): Locale {
    return this.request.locale;
  }

  get messages(): readonly unknown[] | undefined {
    return this.request.messages;
  }

  get abortSignal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortReason !== undefined) this.controller.abort(this.abortReason);
    }
    return this.controller.signal;
  }

  /** Fires the abort signal (time limit passed, or the caller went away). */
  abort(reason: unknown): void {
    if (this.abortReason !== undefined) return;
    this.abortReason = reason;
    this.controller?.abort(reason);
  }

  get aborted(): boolean {
    return this.abortReason !== undefined;
  }

  connector<TClient>(connector: ConnectorDefinition<any, TClient>): TClient {
    const { name } = connector;
    const client = this.request.connectors?.(this.tenant?.id ?? null, name);
    if (client === undefined || client === null) {
      throw new ToolgateError(ErrorCode.CONNECTOR_NOT_CONFIGURED, { params: { connector: name } });
    }
    // The resolver builds the client with the registered definition of this name, and names are
    // unique (ConnectorRegistry refuses duplicates): passed the definition its pack registers, a
    // tool gets exactly what that definition's `create` returns.
    return client as TClient;
  }
}
