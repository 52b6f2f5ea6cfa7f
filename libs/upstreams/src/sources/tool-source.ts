import type { ErrorEnvelope } from '@toolgate/toolkit';

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
}

/** One registered outside source (an MCP server, an OpenAPI service) as the gateway talks to it. */
export interface UpstreamClient {
  listTools(signal?: AbortSignal): Promise<UpstreamToolDefinition[]>;
  callTool(name: string, args: unknown, options: UpstreamCallOptions): Promise<UpstreamCallOutcome>;
  close(): Promise<void>;
}
