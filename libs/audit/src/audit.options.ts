import type { RedactionPolicy } from './redaction/redactor.js';

/** Settings of the audit lib. */
export interface AuditOptions {
  /** Audit L0 calls too (off by default: L0 calls are metrics only). */
  readonly auditL0: boolean;
  /** How long a call waits for its audit write; part of the call's own time budget. */
  readonly writeDeadlineMs: number;
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
  /** Secret the per-tenant fingerprint keys are derived from. */
  readonly fingerprintSecret: string;
  /**
   * Key of every chain link (HMAC-SHA256, ADR 009); lives outside the database, so database access
   * alone cannot extend or re-hash the chain. Derive it with `deriveChainKey(auditSecret)`.
   */
  readonly chainKey: Buffer;
  /** Redaction for tenants that do not set their own. */
  readonly defaultRedaction: RedactionPolicy;
  /**
   * How long a tenant's redaction policy is reused before the tenant is read again. A policy
   * changed on another gateway applies within this time.
   */
  readonly redactionCacheTtlMs: number;
  /** How often the reconciler looks for calls of dead gateways. */
  readonly reconcileIntervalMs: number;
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
  'signingKeyPem' | 'fingerprintSecret' | 'chainKey' | 'defaultRedaction' | 'archiveDir'
> = {
  auditL0: false,
  writeDeadlineMs: 2_000,
  maxBatch: 500,
  writerLanes: 4,
  batchesInFlight: 2,
  retryIntervalMs: 1_000,
  checkpointIntervalMs: 60_000,
  redactionCacheTtlMs: 5_000,
  reconcileIntervalMs: 5_000,
  storedPayloadMaxBytes: 65_536,
};

export const AUDIT_OPTIONS = Symbol('AUDIT_OPTIONS');
