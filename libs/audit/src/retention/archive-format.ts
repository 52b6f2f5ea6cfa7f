import type { StoredCheckpoint } from '../chain/checkpoint.repository.js';

/** What an archive manifest says it is (a checkpoint statement has no `kind`: neither passes for the other). */
export const ARCHIVE_KIND = 'toolgate-audit-archive';

/** Archived ranges of the chain live under `archive/<tenant>/` in the archive store. */
export const ARCHIVE_PREFIX = 'archive/';
/** The public keys that signed archive manifests and checkpoints, one object each. */
export const KEYS_PREFIX = 'keys/';

const SEQ_DIGITS = 20;

/** The store prefix of a tenant's archived ranges. */
export const tenantArchivePrefix = (tenantId: string) => `${ARCHIVE_PREFIX}${encodeURIComponent(tenantId)}/`;

/**
 * The keys of one archived range: `<firstSeq>-<lastSeq>-<yyyymmdd>` (seqs padded, so the store
 * lists a tenant's ranges in chain order), as gzipped JSON lines, a manifest and its signature.
 */
export function rangeKeys(tenantId: string, firstSeq: number, lastSeq: number, day: string) {
  const base = `${tenantArchivePrefix(tenantId)}${String(firstSeq).padStart(SEQ_DIGITS, '0')}-${String(lastSeq).padStart(SEQ_DIGITS, '0')}-${day.replaceAll('-', '')}`;
  return { events: `${base}.jsonl.gz`, manifest: `${base}.manifest.json`, signature: `${base}.manifest.sig` };
}

/** The seq range a manifest key names (what a listing tells without reading the object). */
export function rangeOfKey(key: string): { firstSeq: number; lastSeq: number } | null {
  const m = /(\d{20})-(\d{20})-\d{8}\.manifest\.json$/.exec(key);
  return m ? { firstSeq: Number(m[1]), lastSeq: Number(m[2]) } : null;
}

/** The key of a public key's object. */
export const publicKeyKey = (keyId: string) => `${KEYS_PREFIX}${keyId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`;

/**
 * The manifest of one archived range of a tenant's chain: seq `firstSeq` … `lastSeq`, the first
 * event linking to `firstPrevHash`, the last one hashed `lastHash` — exactly the head the covering
 * checkpoint (signed at `lastSeq`) states. It lists the checkpoints whose stretches lie in the range
 * (so each event's public digest can be recomputed and checked against a signature) and the
 * SHA-256 of the events file. Deterministic: two gateways archiving the same range write the same
 * bytes, and its signature (`.manifest.sig`, by the checkpoint key) is the same too.
 */
export interface ArchiveManifest {
  readonly kind: typeof ARCHIVE_KIND;
  readonly version: 1;
  readonly tenantId: string;
  /** The UTC day of the range's first event (`YYYY-MM-DD`). */
  readonly day: string;
  readonly firstSeq: number;
  readonly lastSeq: number;
  readonly firstPrevHash: string;
  readonly lastHash: string;
  readonly events: number;
  /** ISO-8601 time of the first and last event. */
  readonly firstOccurredAt: string;
  readonly lastOccurredAt: string;
  /** The events file's key (relative to the store) and its size and SHA-256. */
  readonly file: string;
  readonly bytes: number;
  readonly sha256: string;
  /** The checkpoint signed at `lastSeq`: it vouches for the range's end. */
  readonly checkpoint: StoredCheckpoint;
  /** Every checkpoint signed at a seq inside the range, oldest first (the covering one last). */
  readonly checkpoints: readonly StoredCheckpoint[];
  readonly keyId: string;
}
