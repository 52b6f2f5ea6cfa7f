import type { ErrorEnvelope } from '@toolgate/toolkit';

/** One parameter of an HTTP call plan: where its argument goes and how it is written there. */
export interface UpstreamCallParameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  /** The input property holding its value. */
  readonly argName: string;
  readonly required: boolean;
  readonly style: string;
  readonly explode: boolean;
  /** Sent as JSON text. */
  readonly json: boolean;
}

/**
 * What decides the request a call of an HTTP-described tool sends, beyond its name: pinned with the
 * definition, so moving a reviewed operation to another method, path or base path is a change.
 */
export interface UpstreamCallPlan {
  readonly method: string;
  /** Origin and base path calls go to (no query, no credentials). */
  readonly baseUrl: string;
  /** The path template, e.g. `/customers/{id}`. */
  readonly path: string;
  /** By location, then name. */
  readonly parameters: readonly UpstreamCallParameter[];
  readonly body: {
    readonly argName: string;
    readonly required: boolean;
    readonly contentType: string;
  } | null;
}

/**
 * A tool as an outside source describes it (an MCP server's `tools/list` entry, or an OpenAPI
 * operation turned into one). Everything here is what a definition's fingerprint is taken over.
 */
export interface UpstreamToolDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  /** JSON Schema (an object schema) of the arguments. */
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema?: Record<string, unknown>;
  readonly annotations?: Record<string, unknown>;
  /**
   * How a call becomes a request, where the source decides it (OpenAPI operations); absent where
   * the protocol fixes it (an MCP `tools/call` names the tool, which is pinned already).
   */
  readonly callPlan?: UpstreamCallPlan;
}

/** How one upstream call ended: its data, or an error envelope the executor passes on. */
export type UpstreamCallOutcome =
  { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly envelope: ErrorEnvelope };

/** Options of one upstream call: the tool's time limit and the call's AbortSignal (sent upstream). */
export interface UpstreamCallOptions {
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  /** Forwarded as the upstream's idempotency key where the protocol has one. */
  readonly idempotencyKey?: string;
  /**
   * The call plan pinned for the tool: a source whose current plan differs refuses the call (the
   * next refresh quarantines the tool) rather than send a request nobody reviewed.
   */
  readonly callPlan?: UpstreamCallPlan;
}

/** One registered outside source (an MCP server, an OpenAPI service) as the gateway talks to it. */
export interface UpstreamClient {
  listTools(signal?: AbortSignal): Promise<UpstreamToolDefinition[]>;
  callTool(name: string, args: unknown, options: UpstreamCallOptions): Promise<UpstreamCallOutcome>;
  close(): Promise<void>;
}
