// Every export is public API of @toolgate/audit: the tamper-evident trail, its checkpoints, evidence and redaction.
import { CreateAudit1764480200000 } from './migrations/1764480200000-create-audit.js';
import { OpenCallsPerTenant1764500100000 } from './migrations/1764500100000-open-calls-per-tenant.js';
import { AuditBinaryIdentifiers1764500200000 } from './migrations/1764500200000-binary-identifiers.js';
import { CheckpointPublicDigest1765400100000 } from './migrations/1765400100000-checkpoint-public-digest.js';
import { CheckpointAlgorithm1765640400000 } from './migrations/1765640400000-checkpoint-algorithm.js';
import { AuditCalls1765400300000 } from './migrations/1765400300000-audit-calls.js';
import { AuditSinks1765403800000 } from './migrations/1765403800000-audit-sinks.js';
import { AuditRetention1765500100000 } from './migrations/1765500100000-audit-retention.js';
import { AuditVerifyJobs1765700100000 } from './migrations/1765700100000-verify-jobs.js';
import { LeanAuditIndexes1765720000000 } from './migrations/1765720000000-lean-audit-indexes.js';
import { AuditCallsToolStatus1765730000000 } from './migrations/1765730000000-audit-calls-tool-status.js';

export { AUDIT_EVENT_TYPES, CLOSING_EVENTS, GENESIS_HASH, PLATFORM_TENANT } from './audit-event.js';
export type { AuditActor, AuditEventType, OutputSummary } from './audit-event.js';
export { AuditAlarms } from './alarms/audit-alarms.js';
export type { AuditAlarm, AuditAlarmKind, AuditAlarmListener } from './alarms/audit-alarms.js';
export { ARCHIVE_STORE } from './archive/archive-store.js';
export type { ArchiveStore } from './archive/archive-store.js';
export { CheckpointArchive } from './archive/checkpoint-archive.js';
export { DirectoryArchiveStore } from './archive/directory-archive-store.js';
export { draftEvent } from './audit-fields.js';
export { unzipFiles, zipFiles } from './evidence/zip.js';
export { ZipFile } from './evidence/zip-file.js';
export { ZipStreamWriter } from './evidence/zip-writer.js';
export type { EvidencePlan, EvidenceWritten } from './evidence/evidence-builder.js';
export type { AuditEventDraft } from './audit-fields.js';
export { AuditModule } from './audit.module.js';
export { DEFAULT_AUDIT_OPTIONS } from './audit.options.js';
export type { AuditOptions } from './audit.options.js';
export { AuditTrail } from './audit-trail.js';
export { AuditCallQueries } from './calls/audit-call-queries.js';
export { auditCallsQuerySchema, auditPrincipalsQuerySchema } from './calls/audit-call-query.js';
export type { AuditCallsQuery, AuditPrincipalsQuery } from './calls/audit-call-query.js';
export { CALL_PROJECTION_INTERVAL_MS, CallProjector } from './calls/call-projector.js';
export { SiemModule, SiemForwarder, DEFAULT_SIEM_OPTIONS, DEFAULT_SINK_OPTIONS } from './siem/index.js';
export type { SiemOptions, SinkOptions, SinkStatus, DeadLetter, SiemRecord } from './siem/index.js';
export { AccessDenials, DENIALS_PER_KEY_PER_WINDOW } from './denials/access-denials.js';
export type { AccessDenial } from './denials/access-denials.js';
export type { AdminEvent } from './audit-trail.js';
export type { SqlStatement } from './chain/audit-chain.repository.js';
export { AuditWriter } from './chain/audit-writer.js';
export { faceOf, runContextOf } from './hooks/call-event-factory.js';
export type { Verification, TenantVerification } from './chain/chain-verifier.js';
export { localizedProblem, localizedVerification } from './chain/chain-problems.js';
export { CheckpointRefusedError, CheckpointService } from './chain/checkpoint.service.js';
export type { CheckpointRefusal, CheckpointRun } from './chain/checkpoint.service.js';
export type { StoredCheckpoint } from './chain/checkpoint.repository.js';
export { checkpointPayload, CheckpointSigner } from './chain/checkpoint-signer.js';
export type { CheckpointStatement } from './chain/checkpoint-signer.js';
export { checkpointPublicKeyFromPem } from './chain/checkpoint-keys.js';
export type { CheckpointKeyAlgorithm, CheckpointPublicKey } from './chain/checkpoint-keys.js';
export { CRYPTO_SUITES, DEFAULT_CRYPTO_SUITE } from './chain/crypto-suite.js';
export type { CheckpointAlgorithm, CryptoSuite, DigestAlgorithm } from './chain/crypto-suite.js';
export { generateSm2PrivateKeyPem, SM2_DEFAULT_ID, Sm2PrivateKey, Sm2PublicKey } from './chain/sm2.js';
export { nextPublicDigest } from './chain/public-digest.js';
export {
  canonicalEvent,
  CHAIN_KEY_CONTEXT,
  deriveChainKey,
  deriveLinkKeys,
  deriveSmChainKey,
  eventHash,
  LINK_ALGORITHMS,
  linkVersionOf,
  publicCanonical,
  SM_CHAIN_KEY_CONTEXT,
  smEventHash,
  unkeyedEventHash,
} from './chain/event-hash.js';
export type { LinkKeys, LinkVersion } from './chain/event-hash.js';
export { toApiEvent } from './chain/event-mapping.js';
export type { ApiAuditEvent } from './chain/event-mapping.js';
export { AuditEventsRepository } from './query/audit-events.repository.js';
export { AuditQueries } from './query/audit-queries.js';
// The export's cell rule (defused formulas, quoted separators), for other CSV files the gateway serves.
export { csvCell } from './query/audit-export.js';
export { VerifyJobs } from './query/verify-jobs.js';
export {
  auditEvidenceQuerySchema,
  auditExportQuerySchema,
  auditListQuerySchema,
  auditVerifyQuerySchema,
} from './query/audit-query.js';
export type {
  AuditEvidenceQuery,
  AuditExportQuery,
  AuditListQuery,
  AuditVerifyQuery,
} from './query/audit-query.js';
export { DEFAULT_REDACTION_POLICY, REDACTED, Redactor } from './redaction/redactor.js';
export type { RedactionPolicy } from './redaction/redactor.js';
export {
  AUDIT_POLICY_SOURCE,
  redactionSettingsSchema,
  tenantAuditSettingsSchema,
  TenantRedaction,
} from './redaction/tenant-redaction.js';
export type {
  AuditPolicySource,
  RedactionSettings,
  TenantAuditSettings,
} from './redaction/tenant-redaction.js';
export { findSpans, maskSpan, VALUE_PATTERNS } from './redaction/value-patterns.js';
export { checkArchive, describeArchive, isArchiveDir, readArchiveDir } from './retention/archive-check.js';
export type { ArchiveReport, ArchivedTenantReport } from './retention/archive-check.js';
export { ARCHIVE_KIND } from './retention/archive-format.js';
export type { ArchiveManifest } from './retention/archive-format.js';
export { RetentionJob } from './retention/retention-job.js';
export type { TenantRetentionRun, TenantRetentionStatus } from './retention/retention-job.js';
export {
  MAX_RETENTION_DAYS,
  RETENTION_POLICY_SOURCE,
  RetentionPolicy,
} from './retention/retention-policy.js';
export type { EffectiveRetention, RetentionPolicySource } from './retention/retention-policy.js';
export { COMPLIANCE_RETENTION_FLOOR_DAYS, DEFAULT_RETENTION_OPTIONS } from './retention/retention.options.js';
export type { RetentionOptions, RetentionRuntime, S3ArchiveOptions } from './retention/retention.options.js';
export { auditPurgeExemption, tenantAuditSection } from './retention/tenant-retention.js';
export type { ValuePattern } from './redaction/value-patterns.js';
export {
  AuditBinaryIdentifiers1764500200000,
  AuditCalls1765400300000,
  AuditSinks1765403800000,
  AuditRetention1765500100000,
  AuditVerifyJobs1765700100000,
  CheckpointAlgorithm1765640400000,
  CheckpointPublicDigest1765400100000,
  CreateAudit1764480200000,
  LeanAuditIndexes1765720000000,
  OpenCallsPerTenant1764500100000,
  AuditCallsToolStatus1765730000000,
};

/** The audit lib's migrations, in order. */
/**
 * The trail's tables that only ever grow: a compliance profile has the database refuse UPDATE and
 * DELETE on them (chain heads and open calls do change, and are not among them).
 */
export const AUDIT_APPEND_ONLY_TABLES: readonly string[] = ['audit_events', 'audit_checkpoints'];

export const AUDIT_MIGRATIONS = [
  CreateAudit1764480200000,
  OpenCallsPerTenant1764500100000,
  AuditBinaryIdentifiers1764500200000,
  CheckpointPublicDigest1765400100000,
  AuditCalls1765400300000,
  AuditSinks1765403800000,
  AuditRetention1765500100000,
  CheckpointAlgorithm1765640400000,
  AuditVerifyJobs1765700100000,
  LeanAuditIndexes1765720000000,
  AuditCallsToolStatus1765730000000,
];
export { AuditUnavailableError } from './chain/audit-writer.js';
export type { EvidenceManifest } from './evidence/evidence-format.js';
export { checkEvidence, checkEvidenceStream } from './evidence/evidence-check.js';
export type { VerifyJob } from './query/verify-jobs.js';
