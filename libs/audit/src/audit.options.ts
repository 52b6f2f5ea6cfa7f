import type { RedactionPolicy } from './redaction/redactor.js';

/** Settings of the audit lib. */
export interface AuditOptions {
  /** Audit L0 calls too (off by default: L0 calls are metrics only). */
  readonly auditL0: boolean;
  /** How long a call waits for its audit write; part of the call's own time budget. */
  readonly writeDeadlineMs: number;
  /** Events per transaction at most. */
  readonly maxBatch: number;
  /** Pause between retries of writes that must not be lost. */
  readonly retryIntervalMs: number;
  /** Signed checkpoints: how often per tenant with new events (0 turns the schedule off). */
  readonly checkpointIntervalMs: number;
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
  /** How often the reconciler looks for calls of dead gateways. */
  readonly reconcileIntervalMs: number;
}

export const AUDIT_OPTIONS = Symbol('AUDIT_OPTIONS');
