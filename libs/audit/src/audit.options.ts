import type { CryptoSuite } from './chain/crypto-suite.js';
import type { LinkKeys } from './chain/event-hash.js';
import type { RedactionPolicy } from './redaction/redactor.js';
import {
  DEFAULT_RETENTION_OPTIONS,
  type RetentionOptions,
  type RetentionRuntime,
  type S3ArchiveOptions,
} from './retention/retention.options.js';

/** Settings of the audit lib. */
export interface AuditOptions {
  /** Audit L0 calls too (off by default: L0 calls are metrics only). */
  readonly auditL0: boolean;
  /** How long a call waits for its audit write; part of the call's own time budget. */
  readonly writeDeadlineMs: number;
  /**
   * Whether an L1+ call answers only once its `finished` event is durable (true), or once it is
   * queued to the group commit (false; ADR 043): fail-closed needs only `started` durable before
   * the tool runs, and the queued event is retried until it is stored.
   */
  readonly finishedBeforeAnswer: boolean;
  /** Events per transaction at most. */
  readonly maxBatch: number;
  /**
   * Write lanes: tenants' chains spread over this many concurrent transactions (one tenant's chain
   * always in the same lane).
   */
  readonly writerLanes: number;
  /**
   * Batches of one lane taken at once. One tenant's batches are sent one at a time (ADR 017): with
   * 2, the next is hashed and built while the one before it is written, and sent once that one has
   * committed. More splits the waiting events into smaller batches.
   */
  readonly batchesInFlight: number;
  /** Pause between retries of writes that must not be lost. */
  readonly retryIntervalMs: number;
  /** Signed checkpoints: how often per tenant with new events (0 turns the schedule off). */
  readonly checkpointIntervalMs: number;
  /**
   * The directory every signed checkpoint is exported to (ADR 030): what verification still holds
   * the chain against when rows, head and checkpoints were all deleted in the database.
   */
  readonly archiveDir: string;
  /** Ed25519 private key (PEM) that signs checkpoints; lives outside the database. */
  readonly signingKeyPem: string;
  /**
   * The trail's cryptography (ADR 040): `standard` (HMAC-SHA256 links, Ed25519 checkpoints over
   * SHA-256) or `sm` (HMAC-SM3 links, SM2 checkpoints over SM3). What is already written keeps its
   * own algorithm and verifies either way.
   */
  readonly cryptoSuite: CryptoSuite;
  /**
   * SM2 private key (PEM, PKCS#8 or SEC1) that signs checkpoints under the `sm` suite; when the
   * suite is `standard`, kept (if there is one) to verify the checkpoints it signed before.
   */
  readonly smSigningKeyPem?: string;
  /** Secret the per-tenant fingerprint keys are derived from. */
  readonly fingerprintSecret: string;
  /**
   * Key of every chain link (HMAC-SHA256, ADR 009); lives outside the database, so database access
   * alone cannot extend or re-hash the chain. Derive it with `deriveChainKey(auditSecret)`.
   */
  readonly chainKey: Buffer;
  /**
   * Key of v3 links (HMAC-SM3, ADR 040), derived from the same audit secret with SM3
   * (`deriveSmChainKey`); needed whatever the suite, since a chain that switched holds both.
   */
  readonly smChainKey: Buffer;
  /** Redaction for tenants that do not set their own. */
  readonly defaultRedaction: RedactionPolicy;
  /**
   * How long a tenant's redaction policy is reused before the tenant is read again. A policy
   * changed on another gateway applies within this time.
   */
  readonly redactionCacheTtlMs: number;
  /** How often the reconciler looks for calls of dead gateways. */
  readonly reconcileIntervalMs: number;
  /** Retention: how long the trail stays in the database, archiving and purging (ADR 037). */
  readonly retention: RetentionRuntime;
  /** An S3-compatible bucket as the archive store instead of `archiveDir` (ADR 037). */
  readonly archiveS3?: S3ArchiveOptions;
  /**
   * Stored inputs and outputs (redacted, as JSON) larger than this are kept as their SHA-256, size
   * and first 4 KiB (ADR 036): in the trail, finished call records, idempotency records and runs.
   */
  readonly storedPayloadMaxBytes: number;
}

/**
 * The defaults of the settings file (`config/toolgate.yaml` shows them; a spec keeps the two equal).
 * The redaction default is DEFAULT_REDACTION_POLICY; keys and secrets have none.
 */
export const DEFAULT_AUDIT_OPTIONS: Omit<
  AuditOptions,
  | 'signingKeyPem'
  | 'smSigningKeyPem'
  | 'fingerprintSecret'
  | 'chainKey'
  | 'smChainKey'
  | 'defaultRedaction'
  | 'archiveDir'
  | 'retention'
  | 'archiveS3'
> & { readonly retention: RetentionOptions } = {
  auditL0: false,
  writeDeadlineMs: 2_000,
  finishedBeforeAnswer: true,
  maxBatch: 500,
  writerLanes: 4,
  batchesInFlight: 2,
  retryIntervalMs: 1_000,
  checkpointIntervalMs: 60_000,
  cryptoSuite: 'standard',
  redactionCacheTtlMs: 5_000,
  reconcileIntervalMs: 5_000,
  retention: DEFAULT_RETENTION_OPTIONS,
  storedPayloadMaxBytes: 65_536,
};

export const AUDIT_OPTIONS = Symbol('AUDIT_OPTIONS');

/** The link keys of the options (both, whatever the suite). */
export const linkKeysOf = (o: Pick<AuditOptions, 'chainKey' | 'smChainKey'>): LinkKeys => ({
  sha256: o.chainKey,
  sm3: o.smChainKey,
});
