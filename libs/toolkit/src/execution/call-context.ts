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
  readonly session: SessionInfo;
  readonly tenant: TenantRef | null;
  readonly agentType: string | null;
  readonly toolName: string;
  readonly implementation: string;
  readonly idempotencyKey: string;
  readonly approval: { readonly responder: CallPrincipal } | null;
  readonly locale: Locale;
  readonly messages?: readonly unknown[];
  private controller?: AbortController;
  private abortReason?: unknown;

  constructor(
    readonly callId: string,
    /** The request this context was made for; nested in-process calls inherit from it. */
    readonly request: ToolCallRequest,
  ) {
    const sessionId = request.sessionId ?? callId;
    this.session = {
      id: sessionId,
      turn: { id: request.turnId ?? callId },
      auth: { current: request.principal, initiator: request.initiator ?? request.principal },
      parent: request.parentSessionId ? { id: request.parentSessionId } : null,
    };
    this.tenant = request.tenant;
    this.agentType = request.agentType;
    this.toolName = request.tool.contract.name;
    this.implementation = request.tool.implementation.name;
    this.idempotencyKey = `${sessionId}:${callId}`;
    this.approval = request.approval ?? null;
    this.locale = request.locale;
    this.messages = request.messages;
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

  connector<T = unknown>(name: string): T {
    const client = this.request.connectors?.(this.tenant?.id ?? null, name);
    if (client === undefined || client === null) {
      throw new ToolgateError(ErrorCode.CONNECTOR_NOT_CONFIGURED, { params: { connector: name } });
    }
    return client as T;
  }
}
