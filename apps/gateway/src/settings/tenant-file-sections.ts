import { tenantApprovalSettingsSchema } from '@toolgate/approvals';
import { tenantAuditSettingsSchema } from '@toolgate/audit';
import { COMPLIANCE_RETENTION_FLOOR_DAYS } from '@toolgate/audit';
import {
  complianceOf,
  effectiveCompliance,
  PROCESSING_RECORDS_FLOOR_DAYS,
  tenantComplianceSection,
  tenantDataProtectionSchema,
  type ComplianceProfile,
} from '@toolgate/data-protection';
import { tenantNotificationsSection } from '@toolgate/notifications';
import { tenantQuotasSection } from '@toolgate/quotas';
import type { TenantSections } from '@toolgate/tenancy';
import { tenantUpstreamSettingsSchema } from '@toolgate/upstreams';

/** The profile's floors, the platform's constants. */
const FLOORS = {
  retentionDays: COMPLIANCE_RETENTION_FLOOR_DAYS,
  processingRecordsDays: PROCESSING_RECORDS_FLOOR_DAYS,
};

/**
 * The sections of a tenant file (`config/tenants/<id>.yaml`) besides its own fields, each the
 * per-tenant settings of one lib, composed here as `toolgate.yaml` is (ADR 012, ADR 031). The
 * tenancy lib parses files with them and stores them as the tenant's settings; each lib reads its
 * section back with its own schema. A new per-tenant setting: its lib's schema, then a line here.
 */
export const TENANT_FILE_SECTIONS = {
  /** How this tenant's audit trail redacts values, and whether it keeps agent runs' text. */
  audit: { schema: tenantAuditSettingsSchema },
  /** The tenant's approval policy beyond the tools' own. */
  approvals: { schema: tenantApprovalSettingsSchema },
  /** Call quotas and the day's model tokens. */
  quotas: tenantQuotasSection,
  /** Where approvals are announced (webhook, DingTalk, Feishu, WeCom) and who decides from Feishu. */
  notifications: tenantNotificationsSection,
  /** Recipients' regions, processing records and cross-border legal bases (PIPL, ADR 040). */
  dataProtection: { schema: tenantDataProtectionSchema },
  /**
   * Parts of the dengbao3 profile the tenant adds for itself, tighten-only (ADR 048); the
   * platform's profile is put in by `tenantComplianceFor` (settings.ts).
   */
  compliance: tenantComplianceFor('off'),
  /** Imported tools: quarantine an import whose definition reads as instructions (ADR 045). */
  upstreams: { schema: tenantUpstreamSettingsSchema },
} as const satisfies TenantSections;

/** The `compliance:` section under the platform's profile: loosening it is refused at save. */
export function tenantComplianceFor(platform: ComplianceProfile) {
  return tenantComplianceSection(platform, FLOORS);
}

/**
 * The trail's floor a tenant's settings add (its `compliance.retentionFloor` or `profile`), for
 * the retention policy: under the platform's profile its own floor applies to every tenant already.
 */
export function tenantRetentionFloor(settings: Readonly<Record<string, unknown>>): number | undefined {
  return effectiveCompliance('off', complianceOf(settings)).retentionFloor
    ? COMPLIANCE_RETENTION_FLOOR_DAYS
    : undefined;
}
