import type { AuditEventRecord } from '../audit-fields.js';
import type { StoredCheckpoint } from '../chain/checkpoint.repository.js';

/** The files of an evidence bundle (a ZIP, or the directory it unpacks to). */
export const EVIDENCE_FILES = {
  events: 'events.jsonl',
  checkpoints: 'checkpoints.json',
  publicKeys: 'public-keys.json',
  manifest: 'manifest.json',
  manifestSignature: 'manifest.sig',
  readme: 'README.md',
} as const;

/** What `manifest.json` says it is. */
export const EVIDENCE_KIND = 'toolgate-audit-evidence';

/**
 * One line of `events.jsonl`: every field of the event as the chain hashed it (dates as ISO-8601
 * UTC with milliseconds), its storage id, its links, and `publicDigest` — the running digest of
 * its checkpoint's stretch up to and including it (ADR 030; SM3 when that checkpoint is `sm2-sm3`,
 * ADR 040), or null for an event that only a checkpoint signed before v1.8 covers.
 */
export type EvidenceEvent = Omit<AuditEventRecord, 'occurredAt'> & {
  readonly occurredAt: string;
  readonly publicDigest: string | null;
};

/** One public key of `public-keys.json`: Ed25519, or SM2 (ADR 040). */
export interface EvidenceKey {
  readonly keyId: string;
  readonly algorithm: 'Ed25519' | 'SM2';
  readonly publicKeyPem: string;
}

/**
 * `manifest.json`: what the bundle holds and the SHA-256 of every other file; signed by
 * `manifest.sig` (Ed25519 or SM2, as the key `keyId` is; base64, over the file's bytes). The seq range
 * keeps stretches from being cut off its ends unnoticed.
 */
export interface EvidenceManifest {
  readonly kind: typeof EVIDENCE_KIND;
  readonly version: 1;
  readonly tenantId: string;
  /** The time range asked for (ISO-8601), when one was. */
  readonly from: string | null;
  readonly to: string | null;
  /** The events in the bundle: seq `firstSeq` … `lastSeq` (null, null when none). */
  readonly firstSeq: number | null;
  readonly lastSeq: number | null;
  readonly events: number;
  readonly generatedAt: string;
  readonly keyId: string;
  readonly files: readonly { readonly name: string; readonly bytes: number; readonly sha256: string }[];
}

/** The checkpoints file: the ones whose stretches cover the events, oldest first. */
export type EvidenceCheckpoints = readonly StoredCheckpoint[];

/** An event as a JSON line of `events.jsonl`. */
export function evidenceLine(e: AuditEventRecord, publicDigest: string | null): string {
  return JSON.stringify({ ...e, occurredAt: e.occurredAt.toISOString(), publicDigest });
}
