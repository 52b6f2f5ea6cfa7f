// Outside tool sources (MCP servers, OpenAPI services) imported as governed, pinned tools (issue 11).
import { CreateUpstreams1764700300000 } from './migrations/1764700300000-create-upstreams.js';
import { UpstreamBaseUrl1764700390000 } from './migrations/1764700390000-upstream-base-url.js';
import { UpstreamSecretNamespace1765200100000 } from './migrations/1765200100000-upstream-secret-namespace.js';
import { UpstreamFingerprintVersion1765200280000 } from './migrations/1765200280000-upstream-fingerprint-version.js';

export type {
  UpstreamCallOptions,
  UpstreamCallOutcome,
  UpstreamCallParameter,
  UpstreamCallPlan,
  UpstreamClient,
  UpstreamToolDefinition,
} from './sources/tool-source.js';
export {
  DEFAULT_UPSTREAM_REFRESH_MS,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  IMPORTED_TOOL_NAME_PATTERN,
} from './constants.js';
export { UPSTREAM_KINDS } from './entities/upstream-server.entity.js';
export type { UpstreamKind } from './entities/upstream-server.entity.js';
export {
  changedFields,
  describedFingerprintOf,
  fingerprintOf,
  FINGERPRINT_VERSION,
  FINGERPRINTED_FIELDS,
} from './fingerprint.js';
export { checkUpstreamUrl, createMcpClient } from './mcp/mcp-upstream-client.js';
export type { McpClientOptions } from './mcp/mcp-upstream-client.js';
export { OpenApiSourceError, createOpenApiClient } from './openapi/index.js';
export type { OpenApiClientOptions, OpenApiSourceFailure } from './openapi/index.js';
export { outcomeOfResult } from './mcp/mcp-result.js';
export { UpstreamAdmin, defaultToolgateName } from './upstream-admin.service.js';
export { UPSTREAM_CLIENT_FACTORIES, UpstreamConnections } from './upstream-connections.js';
export type { UpstreamClientFactory, UpstreamConnectionSpec } from './upstream-connections.js';
export { UpstreamsModule } from './upstreams.module.js';
export { DEFAULT_UPSTREAMS_OPTIONS, UPSTREAMS_OPTIONS } from './upstreams.options.js';
export type { UpstreamsOptions } from './upstreams.options.js';
export {
  CreateUpstreams1764700300000,
  UpstreamBaseUrl1764700390000,
  UpstreamSecretNamespace1765200100000,
  UpstreamFingerprintVersion1765200280000,
};

/** The upstreams lib's migrations, in order. */
export const UPSTREAMS_MIGRATIONS = [
  CreateUpstreams1764700300000,
  UpstreamBaseUrl1764700390000,
  UpstreamSecretNamespace1765200100000,
  UpstreamFingerprintVersion1765200280000,
];
