import { digestAlgorithmOf } from '../chain/crypto-suite.js';
import type { StoredCheckpoint } from '../chain/checkpoint.repository.js';
import { publicCanonical } from '../chain/event-hash.js';
import { nextPublicDigest } from '../chain/public-digest.js';
import { EvidenceChecker } from './evidence-checker.js';
import { EVIDENCE_FILES, type EvidenceEvent } from './evidence-format.js';

/** One thing found wrong, with the event concerned when there is one (seq and storage id together). */
export interface EvidenceProblem {
  readonly message: string;
  readonly seq?: number;
  readonly id?: string;
}

/**
 * The verdict on an evidence bundle. `exitCode`: 0 everything verified; 1 something was tampered
 * with or does not agree; 2 not an evidence bundle (unreadable, files missing); 3 nothing wrong
 * found, but some events are covered only by checkpoints signed before v1.8, which carry no public
 * digest and can be checked only by the gateway.
 */
export interface EvidenceReport {
  readonly ok: boolean;
  readonly exitCode: 0 | 1 | 2 | 3;
  readonly tenantId?: string;
  readonly events: number;
  /** Events whose content a signed public digest vouches for. */
  readonly verified: number;
  readonly checkpoints: number;
  /** The key everything was checked against. */
  readonly keyId?: string;
  /** The first event found tampered with (lowest seq), when one can be named. */
  readonly firstTampered?: { readonly seq: number; readonly id: string };
  readonly problems: readonly EvidenceProblem[];
  readonly notes: readonly string[];
}

const at = (e: Pick<EvidenceEvent, 'seq' | 'id'>) => `event seq ${e.seq} (id ${e.id})`;

/**
 * Checks an evidence bundle with public material only — no database, no gateway, no chain secret
 * (ADR 030): the manifest's signature and hashes, each checkpoint's signature, each stretch's
 * public digest event by event, the links between events, and that the events run without a gap
 * from the manifest's first seq to its last.
 *
 * `trustedKeyPems`, when given, are the only keys accepted (fetched from `GET /v1/audit/public-keys`
 * or pinned by the auditor; Ed25519 or SM2, recognised from the key, ADR 040 — a chain that
 * switched suite needs both); otherwise the bundle's own `public-keys.json` is used, and the report
 * names the key so that it can be compared with the published one. Each checkpoint is checked with
 * the key its id names, and only if that key's scheme is the one its signed `algorithm` says.
 */
export function checkEvidence(
  files: ReadonlyMap<string, Buffer>,
  trustedKeyPems?: string | readonly string[],
): EvidenceReport {
  const events = files.get(EVIDENCE_FILES.events);
  if (!events)
    return {
      ok: false,
      exitCode: 2,
      events: 0,
      verified: 0,
      checkpoints: 0,
      problems: [{ message: `${EVIDENCE_FILES.events} is missing: not a Toolgate evidence bundle` }],
      notes: [],
    };
  // The same one-pass check the verifier runs over a bundle of any size (ADR 046).
  const checker = new EvidenceChecker(files, trustedKeyPems);
  checker.feed(events);
  return checker.finish();
}

/**
 * The same check with `events.jsonl` read as chunks (from a ZIP entry or a file being read), so
 * that memory does not grow with the bundle (ADR 046).
 */
export async function checkEvidenceStream(
  files: ReadonlyMap<string, Buffer>,
  events: AsyncIterable<Buffer> | Iterable<Buffer>,
  trustedKeyPems?: string | readonly string[],
): Promise<EvidenceReport> {
  const checker = new EvidenceChecker(files, trustedKeyPems);
  for await (const chunk of events) checker.feed(chunk);
  return checker.finish();
}

/** Each event links to the one before it and none is missing. */
export function linkProblems(events: readonly EvidenceEvent[]): EvidenceProblem[] {
  const out: EvidenceProblem[] = [];
  for (let i = 1; i < events.length; i++) {
    const [prev, e] = [events[i - 1]!, events[i]!];
    if (e.seq === prev.seq) out.push({ message: `${at(e)} appears twice`, seq: e.seq, id: e.id });
    else if (e.seq !== prev.seq + 1)
      out.push({
        message: `event seq ${prev.seq + 1}${e.seq > prev.seq + 2 ? `–${e.seq - 1}` : ''} is missing (deleted), before ${at(e)}`,
        seq: e.seq,
        id: e.id,
      });
    else if (e.prevHash !== prev.hash)
      out.push({
        message: `${at(e)} does not link to the event before it (inserted, replaced or reordered)`,
        seq: e.seq,
        id: e.id,
      });
  }
  return out;
}

/**
 * Recomputes a checkpoint's public digest over its stretch, comparing each event's exported
 * running digest on the way: the first that differs is the event whose content was changed. If
 * every exported digest agrees and only the signed one does not, the digests were recomputed
 * after an edit somewhere in the stretch, and the stretch is what can be named.
 */
export function checkStretch(
  cp: StoredCheckpoint,
  bySeq: ReadonlyMap<number, EvidenceEvent>,
): { problems: EvidenceProblem[] } {
  const from = cp.fromSeq!;
  const algorithm = digestAlgorithmOf(cp.algorithm);
  let digest = cp.fromHash!;
  const first = bySeq.get(from + 1);
  if (!first) return { problems: [] }; // a stretch outside the bundle's range
  if (first.prevHash !== cp.fromHash)
    return {
      problems: [
        {
          message: `${at(first)} does not link to the hash the checkpoint at seq ${cp.seq} starts from`,
          seq: first.seq,
          id: first.id,
        },
      ],
    };
  for (let s = from + 1; s <= cp.seq; s++) {
    const e = bySeq.get(s);
    if (!e) return { problems: [] }; // reported as missing by linkProblems / rangeProblems
    const canonical = publicCanonical({ ...e, occurredAt: new Date(e.occurredAt) }, e.seq);
    digest = nextPublicDigest(digest, e.prevHash, e.hash, canonical, algorithm);
    if (e.publicDigest !== digest)
      return {
        problems: [
          {
            message: `${at(e)} was changed: its content does not match the public digest of its stretch (checkpoint at seq ${cp.seq})`,
            seq: e.seq,
            id: e.id,
          },
        ],
      };
  }
  if (digest !== cp.publicDigest)
    return {
      problems: [
        {
          message: `the events seq ${from + 1}–${cp.seq} do not match the public digest the checkpoint signed at ${cp.signedAt}: changed, and the exported digests recomputed`,
          seq: from + 1,
          id: bySeq.get(from + 1)!.id,
        },
      ],
    };
  return { problems: [] };
}
