import type { ConnectorDefinition } from '../definition/define-connector.js';
import type { Locale } from '../errors/messages.js';

/**
 * Who is acting. The gateway fills it from the API key; `principalType: 'system'` stands for the
 * platform itself (schedulers, in-process calls with no caller).
 */
export interface CallPrincipal {
  readonly principalType: 'api_key' | 'user' | 'system';
  readonly principalId: string;
  /** The platform role of the key, when there is one. */
  readonly role?: string;
  /** The tenant the principal belongs to; null for platform-wide principals. */
  readonly tenantId?: string | null;
  readonly name?: string;
}

/** The system principal used when a governed call has no caller. */
export const SYSTEM_PRINCIPAL: CallPrincipal = Object.freeze({
  principalType: 'system',
  principalId: 'system',
  name: 'system',
});

/** A session reference; `parent` is set in subagent sessions. */
export interface SessionInfo {
  readonly id: string;
  readonly turn: { readonly id: string };
  readonly auth: {
    /** The principal making this call. May be null: tools must check before use. */
    readonly current: CallPrincipal | null;
    /** The principal that created the session. */
    readonly initiator: CallPrincipal | null;
  };
  readonly parent: { readonly id: string } | null;
}

/** The tenant a call runs for. */
export interface TenantRef {
  readonly id: string;
}

/**
 * The second argument of every tool's `execute(input, ctx)`. Platform-owned: nothing in a request
 * body can set any of it.
 */
export interface ToolContext {
  readonly session: SessionInfo;
  /** Null only for platform-internal calls that run outside any tenant. */
  readonly tenant: TenantRef | null;
  readonly agentType: string | null;
  readonly callId: string;
  /** The contract name the caller used. */
  readonly toolName: string;
  /** Which implementation of the contract runs (`sap`, `yonyou_nc`, `default`). */
  readonly implementation: string;
  /** Fires when the call passes its time limit or the caller goes away. Pass it to fetch(). */
  readonly abortSignal: AbortSignal;
  /** Stable across re-runs of the same call: `${session.id}:${callId}`. Pass it upstream. */
  readonly idempotencyKey: string;
  /** Set when a person approved this call. */
  readonly approval: { readonly responder: CallPrincipal } | null;
  readonly locale: Locale;
  /** The model input that led to this call, when it came from an agent run. */
  readonly messages?: readonly unknown[];
  /**
   * The tenant's client of a connector, typed by the connector's definition:
   * `ctx.connector(sapConnector)` is whatever `sapConnector.create` returns. Credentials stay
   * inside the client: they never reach the model, an envelope or the audit trail. Throws
   * CONNECTOR_NOT_CONFIGURED when the tenant has not configured it.
   */
  connector<TClient>(connector: ConnectorDefinition<any, TClient>): TClient;
}

/** Resolves a tenant's connector clients; supplied by whoever knows the tenant configuration. */
export type ConnectorResolver = (tenantId: string | null, name: string) => unknown;
