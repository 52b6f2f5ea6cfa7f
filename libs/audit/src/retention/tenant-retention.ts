import type { PurgeExemption } from '@toolgate/database';
import { tenantAuditSettingsSchema, type TenantAuditSettings } from '../redaction/tenant-redaction.js';

/**
 * The `audit:` section of a tenant file with its one check a schema cannot make: a retention below
 * the platform's floor (`floorDays`, ADR 037) is refused when the file is saved or imported.
 */
export function tenantAuditSection(floorDays: number) {
  // One section per floor: settings read twice compare equal (and the tenancy lib keeps one).
  let section = sections.get(floorDays);
  if (!section) sections.set(floorDays, (section = buildSection(floorDays)));
  return section;
}

const sections = new Map<number, ReturnType<typeof buildSection>>();

function buildSection(floorDays: number) {
  return {
    schema: tenantAuditSettingsSchema,
    problems: (audit: TenantAuditSettings) =>
      audit.retentionDays !== undefined && audit.retentionDays < floorDays
        ? [
            {
              path: ['retentionDays'],
              message: `${audit.retentionDays} days is below the platform's floor of ${floorDays} days (audit.retention.minimumDays in toolgate.yaml, 180 under the dengbao3 profile)`,
            },
          ]
        : [],
  };
}

/**
 * What the compliance profile's DELETE guard on `audit_events` lets through: the purge window of
 * `audit_purge_boundaries`, for `account` (the user of DATABASE_PURGE_URL) on MySQL/MariaDB.
 */
export function auditPurgeExemption(account?: string): PurgeExemption {
  return {
    table: 'audit_events',
    windowTable: 'audit_purge_boundaries',
    windowColumn: 'window_seq',
    ...(account ? { account } : {}),
  };
}
