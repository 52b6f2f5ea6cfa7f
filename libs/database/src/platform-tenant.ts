/**
 * The tenant key of rows that belong to no tenant (platform keys, platform-wide changes, calls of
 * a platform principal): the audit chain of the platform and the call records it tells about.
 */
export const PLATFORM_TENANT = '_platform';
