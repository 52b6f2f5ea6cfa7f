// Every export is public API of @toolgate/data-protection: personal-information classes, processing records, the cross-border guard and the per-tenant profile (issue 24, ADRs 047, 048).
import { ProcessingCounts1765640500000 } from './migrations/1765640500000-processing-counts.js';
import { ProcessingCountsLastAt1765640700000 } from './migrations/1765640700000-processing-counts-last-at.js';

export { hasValuesAt, sendsClassifiedFields } from './classified-fields.js';
export { DataExportHook } from './data-export.hook.js';
export { DataProtectionModule } from './data-protection.module.js';
export { complianceOf, DataProtectionSections } from './data-protection-sections.js';
export {
  effectiveCompliance,
  PLATFORM_ONLY_COMPLIANCE_PARTS,
  TENANT_COMPLIANCE_PARTS,
  tenantComplianceSchema,
  tenantComplianceSection,
} from './tenant-compliance.js';
export type {
  ComplianceFloors,
  CompliancePart,
  ComplianceProfile,
  EffectiveCompliance,
  TenantCompliance,
} from './tenant-compliance.js';
export {
  DATA_PROTECTION_OPTIONS,
  DEFAULT_DATA_PROTECTION_OPTIONS,
  PROCESSING_RECORDS_FLOOR_DAYS,
} from './data-protection.options.js';
export type { DataProtectionOptions, ModelProviderRegion } from './data-protection.options.js';
export { ModelTurnGuard } from './model-turn-guard.js';
export type { ClassifiedResult } from './model-turn-guard.js';
export { RecipientRegions } from './recipient-regions.js';
export type { RegionSource, ResolvedRegion, UpstreamRegionLookup } from './recipient-regions.js';
export { ProcessingCounts } from './processing-counts.js';
export type { ProcessingCount } from './processing-counts.js';
export { ProcessingRecords } from './processing-records.js';
export type { ProcessingRecordView } from './processing-records.js';
export {
  CROSS_BORDER_BASES,
  isMainlandChina,
  PROCESSING_LEGAL_BASES,
  tenantDataProtectionSchema,
} from './tenant-data-protection.js';
export type { ProcessingRecord, TenantDataProtection } from './tenant-data-protection.js';
export { ProcessingCounts1765640500000, ProcessingCountsLastAt1765640700000 };

/** The data-protection lib's migrations, in order. */
export const DATA_PROTECTION_MIGRATIONS = [
  ProcessingCounts1765640500000,
  ProcessingCountsLastAt1765640700000,
];
