import { createHash } from 'node:crypto';
import { checkpointPublicKeyFromPem, type CheckpointPublicKey } from '../chain/checkpoint-keys.js';
import { algorithmOf, checkpointPayload } from '../chain/checkpoint-signer.js';
import { digestAlgorithmOf } from '../chain/crypto-suite.js';
import type { StoredCheckpoint } from '../chain/checkpoint.repository.js';
import { publicCanonical } from '../chain/event-hash.js';
import { nextPublicDigest } from '../chain/public-digest.js';
import {
  EVIDENCE_FILES,
  EVIDENCE_KIND,
  type EvidenceEvent,
  type EvidenceKey,
  type EvidenceManifest,
} from './evidence-format.js';

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

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
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
  const trusted = typeof trustedKeyPems === 'string' ? [trustedKeyPems] : (trustedKeyPems ?? []);
  const problems: EvidenceProblem[] = [];
  const notes: string[] = [];
  const unusable = (message: string): EvidenceReport => ({
    ok: false,
    exitCode: 2,
    events: 0,
    verified: 0,
    checkpoints: 0,
    problems: [{ message }],
    notes,
  });
  for (const name of Object.values(EVIDENCE_FILES))
    if (!files.has(name)) return unusable(`${name} is missing: not a Toolgate evidence bundle`);

  let manifest: EvidenceManifest;
  let keys: Map<string, CheckpointPublicKey>;
  let checkpoints: StoredCheckpoint[];
  try {
    manifest = JSON.parse(files.get(EVIDENCE_FILES.manifest)!.toString('utf8')) as EvidenceManifest;
    if (manifest.kind !== EVIDENCE_KIND) return unusable(`manifest.json is not a ${EVIDENCE_KIND} manifest`);
    keys = keyMap(
      trusted.length
        ? trusted
        : (
            JSON.parse(files.get(EVIDENCE_FILES.publicKeys)!.toString('utf8')) as { keys: EvidenceKey[] }
          ).keys.map((k) => k.publicKeyPem),
    );
    checkpoints = JSON.parse(files.get(EVIDENCE_FILES.checkpoints)!.toString('utf8')) as StoredCheckpoint[];
  } catch (err) {
    return unusable(`unreadable bundle: ${(err as Error).message}`);
  }
  if (trusted.length) notes.push(`checked against the keys given (${[...keys.keys()].join(', ')})`);
  else
    notes.push(
      `checked against the bundle's own key ${manifest.keyId}: compare it with GET /v1/audit/public-keys`,
    );

  // The manifest: signed, and every file as it lists it.
  const manifestKey = keys.get(manifest.keyId);
  if (
    !manifestKey ||
    !manifestKey.verify(
      files.get(EVIDENCE_FILES.manifest)!,
      files.get(EVIDENCE_FILES.manifestSignature)!.toString('utf8'),
    )
  )
    problems.push({ message: `manifest.json is not signed by key ${manifest.keyId}` });
  for (const f of manifest.files ?? []) {
    const body = files.get(f.name);
    if (!body) problems.push({ message: `${f.name}, listed in the manifest, is missing` });
    else if (sha256(body) !== f.sha256)
      problems.push({ message: `${f.name} does not match the SHA-256 in the manifest` });
  }

  const { events, parseProblems } = parseEvents(files.get(EVIDENCE_FILES.events)!);
  problems.push(...parseProblems);
  problems.push(...rangeProblems(manifest, events));
  problems.push(...linkProblems(events));

  let verified = 0;
  const bySeq = new Map(events.map((e) => [e.seq, e]));
  const covered = new Set<number>();
  for (const cp of checkpoints) {
    const key = keys.get(cp.keyId);
    if (
      !key ||
      key.algorithm !== SCHEME[algorithmOf(cp)] ||
      !key.verify(checkpointPayload(cp), cp.signature)
    ) {
      problems.push({
        message: `the checkpoint at seq ${cp.seq} (signed at ${cp.signedAt}) has an invalid signature`,
      });
      continue;
    }
    const head = bySeq.get(cp.seq);
    if (head && head.hash !== cp.headHash)
      problems.push({
        message: `${at(head)} is not the event the checkpoint at seq ${cp.seq} signed`,
        seq: head.seq,
        id: head.id,
      });
    if (cp.publicDigest === undefined) continue;
    const stretch = checkStretch(cp, bySeq);
    problems.push(...stretch.problems);
    for (let s = cp.fromSeq! + 1; s <= cp.seq; s++) if (!covered.has(s) && bySeq.has(s)) covered.add(s);
    if (!stretch.problems.length) verified += cp.seq - cp.fromSeq!;
  }
  const uncovered = events.filter((e) => !covered.has(e.seq));
  if (uncovered.length)
    notes.push(
      `${uncovered.length} events (seq ${uncovered[0]!.seq}–${uncovered.at(-1)!.seq}) are covered by no checkpoint with a public digest (signed before v1.8, or none yet): only the gateway can check them`,
    );

  const tampered = problems.filter((p) => p.seq !== undefined).sort((a, b) => a.seq! - b.seq!)[0];
  const exitCode = problems.length ? 1 : uncovered.length ? 3 : 0;
  return {
    ok: exitCode === 0,
    exitCode,
    tenantId: manifest.tenantId,
    events: events.length,
    verified: Math.min(verified, events.length),
    checkpoints: checkpoints.length,
    keyId: manifest.keyId,
    ...(tampered ? { firstTampered: { seq: tampered.seq!, id: tampered.id! } } : {}),
    problems,
    notes,
  };
}

/** The signature scheme of each checkpoint algorithm: an SM2 checkpoint is never checked as Ed25519. */
const SCHEME = { 'ed25519-sha256': 'Ed25519', 'sm2-sm3': 'SM2' } as const;

/** The keys by the ids computed from them (a listed id is not taken on trust). */
function keyMap(pems: readonly string[]): Map<string, CheckpointPublicKey> {
  return new Map(pems.map((pem) => checkpointPublicKeyFromPem(pem)).map((k) => [k.keyId, k]));
}

function parseEvents(body: Buffer): { events: EvidenceEvent[]; parseProblems: EvidenceProblem[] } {
  const events: EvidenceEvent[] = [];
  const parseProblems: EvidenceProblem[] = [];
  body
    .toString('utf8')
    .split('\n')
    .forEach((line, i) => {
      if (!line.trim()) return;
      try {
        events.push(JSON.parse(line) as EvidenceEvent);
      } catch {
        parseProblems.push({ message: `events.jsonl line ${i + 1} is not valid JSON (damaged or edited)` });
      }
    });
  events.sort((a, b) => a.seq - b.seq);
  return { events, parseProblems };
}

/** The events run from the manifest's first seq to its last, each once. */
function rangeProblems(m: EvidenceManifest, events: readonly EvidenceEvent[]): EvidenceProblem[] {
  const out: EvidenceProblem[] = [];
  if (events.length !== m.events)
    out.push({ message: `the manifest lists ${m.events} events, events.jsonl holds ${events.length}` });
  if (events.length && (events[0]!.seq !== m.firstSeq || events.at(-1)!.seq !== m.lastSeq))
    out.push({
      message: `the manifest covers seq ${m.firstSeq}–${m.lastSeq}, events.jsonl holds seq ${events[0]!.seq}–${events.at(-1)!.seq} (events cut off an end)`,
    });
  return out;
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
