import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

/*
 * The protocol revisions this server speaks. The SDK (1.x) speaks the handshake revisions
 * (`initialize`, up to 2025-11-25); the 2026-07-28 revision ("modern" in its versioning page) drops
 * the handshake: every request carries its version and the client's capabilities in `_meta` and
 * the `MCP-Protocol-Version` header, `server/discover` says what the server speaks, results carry
 * `resultType`, list results cache hints. What a stateless tools-only server needs of it is small
 * and written here, spec section by section; the SDK 2.x client checks it in the e2e suites.
 */

/** The server's name and version (`initialize`, `server/discover`, `_meta` of modern results). */
export const MCP_SERVER_INFO = { name: 'toolgate', version: '1.0.0' } as const;

/** Revisions without the `initialize` handshake (2026-07-28 versioning page: "modern"). */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];

/** Every revision the server answers, newest first: what `server/discover` and -32022 list. */
export const SERVED_PROTOCOL_VERSIONS: readonly string[] = [
  ...MODERN_PROTOCOL_VERSIONS,
  ...SUPPORTED_PROTOCOL_VERSIONS,
];

/** Whether `version` is a revision without the handshake (per-request `_meta`, `server/discover`). */
export function isModernVersion(version: string): boolean {
  return MODERN_PROTOCOL_VERSIONS.includes(version);
}

/** The reserved `_meta` keys of 2026-07-28 ("Per-request protocol fields", "Per-response protocol fields"). */
export const ProtocolMeta = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/** The error codes 2026-07-28 defines (`-32020`..`-32099` is the spec's own range). */
export const ModernErrorCode = {
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;

/**
 * The methods a modern request may name here: the revision removed `initialize`, `ping` and
 * `logging/setLevel`, tasks became an extension this server does not offer on that revision, and
 * a tools-only server has no prompts, resources or completions. Anything else is 404 -32601.
 */
export const MODERN_METHODS: ReadonlySet<string> = new Set(['server/discover', 'tools/list', 'tools/call']);

/**
 * Cache hints of `server/discover` and `tools/list` (Caching: both are cacheable results). The
 * answers depend on the key (`private`: never shared across credentials), and the server sends no
 * list-changed notifications (there is no `subscriptions/listen` stream): a binding changed by an
 * admin must show at the next request, so nothing is declared fresh (`ttlMs: 0`).
 */
export const CACHE_HINTS = { ttlMs: 0, cacheScope: 'private' } as const;

/** A result as the 2026-07-28 revision wants every one: `resultType` and the server's identity in `_meta`. */
export function asModernResult<T extends object>(result: T): T & { resultType: 'complete' } {
  const meta = (result as { _meta?: Record<string, unknown> })._meta;
  return {
    ...result,
    resultType: 'complete',
    _meta: { ...meta, [ProtocolMeta.serverInfo]: MCP_SERVER_INFO },
  };
}
