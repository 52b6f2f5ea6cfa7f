/** Limits and defaults of upstream tool sources, in one place. */

/** A server's name: the namespace of its tools, so snake_case without double underscores. */
export const UPSTREAM_NAME_PATTERN = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
export const MAX_UPSTREAM_NAME_LENGTH = 32;
/**
 * An imported tool's name: `<server>__<tool>`. Registry tools are single-underscore snake_case,
 * so an imported tool can never shadow one.
 */
export const IMPORTED_TOOL_NAME_PATTERN = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*__[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
/** Time limit of an upstream's calls when the admin gives none. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 10_000;
/** How often every upstream's tool list is compared with the pinned definitions. */
export const DEFAULT_UPSTREAM_REFRESH_MS = 60_000;
/** Connecting and listing tools may take this long before the upstream counts as unreachable. */
export const UPSTREAM_LIST_TIMEOUT_MS = 10_000;
/** Pages of `tools/list` read at most (a server that never ends its cursor chain is cut off). */
export const MAX_TOOL_LIST_PAGES = 50;
/** Upstream refreshes running at once on one gateway, across all tenants. */
export const REFRESH_CONCURRENCY = 4;
/** Of those, what one tenant may hold: its slow servers leave the other slots to other tenants. */
export const REFRESH_CONCURRENCY_PER_TENANT = 2;
/** One server's refresh (connect, list, compare) gives its slot back after this long. */
export const UPSTREAM_REFRESH_TIMEOUT_MS = 30_000;
