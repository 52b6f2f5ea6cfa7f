import { ErrorCode as RpcErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import {
  MODERN_METHODS,
  ModernErrorCode,
  ProtocolMeta,
  SERVED_PROTOCOL_VERSIONS,
} from './protocol-revisions.js';

/** Why a request is refused before it reaches the server: the HTTP status and the JSON-RPC error. */
export interface McpRefusal {
  readonly status: number;
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** The HTTP headers 2026-07-28 mirrors from the body ("Standard Request Headers"). */
export interface MirroredHeaders {
  readonly method?: string | string[];
  readonly name?: string | string[];
}

/** An `MCP-Protocol-Version` the server does not speak: 400 UnsupportedProtocolVersion with the list. */
export function unsupportedVersion(requested: string): McpRefusal {
  return {
    status: 400,
    code: ModernErrorCode.UnsupportedProtocolVersion,
    message: `Unsupported protocol version; supported: ${SERVED_PROTOCOL_VERSIONS.join(', ')}`,
    data: { supported: [...SERVED_PROTOCOL_VERSIONS], requested: requested.slice(0, 64) },
  };
}

/**
 * Checks one message of a 2026-07-28 request before it is delivered (Streamable HTTP, "Server
 * Validation"; Overview, "Per-request protocol fields"):
 * - `_meta` carries the protocol version (equal to the header's: -32020 otherwise) and the client
 *   capabilities (400 -32602 when either is missing);
 * - `Mcp-Method` equals the body's method, and `Mcp-Name` its `params.name` (tools/call) — a
 *   gateway in front may route or meter on the headers, so they must say what the body does
 *   (400 -32020 HeaderMismatch);
 * - the method is one this server serves on that revision (404 -32601 otherwise).
 * Notifications carry no header rules in that revision and pass.
 */
export function checkModernMessage(
  message: JSONRPCMessage,
  version: string,
  headers: MirroredHeaders,
): McpRefusal | undefined {
  if (!('method' in message) || !('id' in message)) return undefined;
  const { method } = message;
  const params = (message.params ?? {}) as Record<string, unknown>;
  // The order of the SDKs' own servers: an incomplete envelope, then headers, then the method.
  const meta = params._meta as Record<string, unknown> | undefined;
  const declared = meta?.[ProtocolMeta.protocolVersion];
  if (declared === undefined || !isObject(meta?.[ProtocolMeta.clientCapabilities]))
    return {
      status: 400,
      code: RpcErrorCode.InvalidParams,
      message: `Invalid params: _meta needs "${ProtocolMeta.protocolVersion}" and "${ProtocolMeta.clientCapabilities}"`,
    };
  if (declared !== version)
    return mismatch(`MCP-Protocol-Version header does not match _meta["${ProtocolMeta.protocolVersion}"]`);
  if (single(headers.method) !== method)
    return mismatch(`Mcp-Method header does not match the body's method (${method.slice(0, 64)})`);
  if (method === 'tools/call' && decodeHeader(single(headers.name)) !== params.name)
    return mismatch("Mcp-Name header does not match the body's params.name");
  if (!MODERN_METHODS.has(method))
    return {
      status: 404,
      code: RpcErrorCode.MethodNotFound,
      message: `Method not found: ${method.slice(0, 64)}`,
    };
  return undefined;
}

function mismatch(message: string): McpRefusal {
  return { status: 400, code: ModernErrorCode.HeaderMismatch, message: `Header mismatch: ${message}` };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? undefined : value;
}

const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);

const SENTINEL_START = '=?base64?';
const SENTINEL_END = '?=';

/**
 * A mirrored header's value ("Value Encoding"): `=?base64?<base64 of the UTF-8 value>?=` for what
 * a plain header cannot carry, the value itself otherwise. A malformed encoding decodes to
 * undefined, which matches no body value.
 */
export function decodeHeader(value: string | undefined): string | undefined {
  if (value === undefined || !value.startsWith(SENTINEL_START) || !value.endsWith(SENTINEL_END)) return value;
  const encoded = value.slice(SENTINEL_START.length, value.length - SENTINEL_END.length);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  return Buffer.from(decoded, 'utf8').toString('base64') === encoded ? decoded : undefined;
}
