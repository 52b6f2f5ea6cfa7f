import type { Agent } from '@toolgate/agents';
import type { Principal } from '@toolgate/auth';
import type { Locale } from '@toolgate/toolkit';

/**
 * Who sent one MCP HTTP request, as the route established it: everything comes from the API key
 * and the URL, nothing from the JSON-RPC body. Every request of the exchange shares it.
 */
export interface McpCaller {
  readonly principal: Principal;
  readonly tenantId: string;
  /** The agent the key may use at `/mcp/:agentType` (built before any message is delivered). */
  readonly agent: Agent;
  readonly locale: Locale;
  /** The `traceparent` header, when well-formed; a request's `_meta.traceparent` wins over it. */
  readonly traceparent?: string;
  /** The negotiated protocol version (`MCP-Protocol-Version`), or the spec's default when absent. */
  readonly protocolVersion: string;
  /** Fires when the HTTP client went away before its answer. */
  readonly gone: AbortSignal;
}
