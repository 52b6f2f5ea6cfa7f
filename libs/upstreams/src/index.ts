// Every export is public API of @toolgate/upstreams: outside tool sources (MCP servers, OpenAPI services) imported as governed, pinned tools (issue 11).
import { CreateUpstreams1764700300000 } from './migrations/1764700300000-create-upstreams.js';
import { UpstreamBaseUrl1764700390000 } from './migrations/1764700390000-upstream-base-url.js';
import { UpstreamSecretNamespace1765200100000 } from './migrations/1765200100000-upstream-secret-namespace.js';
import { UpstreamFingerprintVersion1765200280000 } from './migrations/1765200280000-upstream-fingerprint-version.js';
import { UpstreamRegion1765640600000 } from './migrations/1765640600000-upstream-region.js';

export type { UpstreamClient, UpstreamToolDefinition } from './sources/tool-source.js';
export { describedFingerprintOf } from './fingerprint.js';
export { UpstreamImports } from './admin/upstream-imports.js';
export { UpstreamRegistration } from './admin/upstream-registration.js';
export { UpstreamReviews } from './admin/upstream-reviews.js';
export { UpstreamServers } from './admin/upstream-servers.js';
export { UpstreamsModule } from './upstreams.module.js';
export { tenantUpstreamSettingsSchema } from './tenant-upstream-settings.js';
export type { TenantUpstreamSettings } from './tenant-upstream-settings.js';
export { DEFAULT_UPSTREAMS_OPTIONS } from './upstreams.options.js';
export type { UpstreamsOptions } from './upstreams.options.js';

/** The upstreams lib's migrations, in order. */
export const UPSTREAMS_MIGRATIONS = [
  CreateUpstreams1764700300000,
  UpstreamBaseUrl1764700390000,
  UpstreamSecretNamespace1765200100000,
  UpstreamFingerprintVersion1765200280000,
  UpstreamRegion1765640600000,
];
