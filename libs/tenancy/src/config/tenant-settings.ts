import { TENANT_SETTINGS_KEYS, type TenantFile } from './tenant-file.schema.js';

/** The per-tenant policies a file carries, as stored in the tenant's settings. */
export function settingsOf(file: TenantFile): Record<string, unknown> {
  return Object.fromEntries(
    TENANT_SETTINGS_KEYS.map((key) => [key, file[key]]).filter(([, v]) => v !== undefined),
  );
}
