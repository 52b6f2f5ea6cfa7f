import { createHash, type Hash } from 'node:crypto';
import { checkpointPublicKeyFromPem, type CheckpointPublicKey } from '../chain/checkpoint-keys.js';
import { algorithmOf, checkpointPayload } from '../chain/checkpoint-signer.js';
import type { StoredCheckpoint } from '../chain/checkpoint.repository.js';
import { digestAlgorithmOf, type DigestAlgorithm } from '../chain/crypto-suite.js';
import { publicCanonical } from '../chain/event-hash.js';
import { nextPublicDigest } from '../chain/public-digest.js';
import {
  EVIDENCE_FILES,
  EVIDENCE_KIND,
  type EvidenceEvent,
  type EvidenceKey,
  type EvidenceManifest,
} from './evidence-format.js';
import type { EvidenceProblem, EvidenceReport } from './evidence-check.js';

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const at = (e: Pick<EvidenceEvent, 'seq' | 'id'>) => `event seq ${e.seq} (id ${e.id})`;
/** The signature scheme of each checkpoint algorithm: an SM2 checkpoint is never checked as Ed25519. */
const SCHEME = { 'ed25519-sha256': 'Ed25519', 'sm2-sm3': 'SM2' } as const;
const NEWLINE = 0x0a;

/** One checkpoint's stretch, recomputed as its events go by. */
interface Stretch {
  readonly cp: StoredCheckpoint;
  readonly algorithm: DigestAlgorithm;
  readonly problems: EvidenceProblem[];
  state: 'waiting' | 'running' | 'over';
  digest: string;
  next: number;
  firstId: string;
}

/**
 * The evidence check of ADR 030 in one pass over `events.jsonl` (ADR 046): the small files are
 * read whole, the events fed as chunks in file order and forgotten once checked, so a bundle of
 * any size is verified in bounded memory. What it holds per event is a few numbers; per
 * checkpoint, its stretch's running digest. The findings are those of the in-memory check it
 * replaced: manifest, parse, range and link problems, then each checkpoint's, in that order.
 */
export class EvidenceChecker {
  private readonly notes: string[] = [];
  private readonly manifestProblems: EvidenceProblem[] = [];
  private readonly parseProblems: EvidenceProblem[] = [];
  private readonly linkProblems: EvidenceProblem[] = [];
  /** Per checkpoint, in file order: its signature, head and stretch problems. */
  private readonly perCheckpoint: EvidenceProblem[][] = [];
  private readonly unusable?: EvidenceReport;
  private manifest!: EvidenceManifest;
  private checkpoints: StoredCheckpoint[] = [];
  private readonly stretchesFrom = new Map<number, Stretch[]>();
  private readonly stretches: Stretch[] = [];
  private active: Stretch[] = [];
  private readonly headsAt = new Map<number, { cp: StoredCheckpoint; problems: EvidenceProblem[] }[]>();
  /** The seqs a valid public digest covers, as merged (from, to] intervals, ascending. */
  private covering: [number, number][] = [];
  private readonly eventsHash: Hash = createHash('sha256');
  private rest: Buffer = Buffer.alloc(0);
  private line = 0;
  private count = 0;
  private minSeq = Infinity;
  private maxSeq = -Infinity;
  private prev?: EvidenceEvent;
  private uncovered = 0;
  private uncoveredMin = Infinity;
  private uncoveredMax = -Infinity;

  /**
   * @param files every file of the bundle but `events.jsonl` (whose bytes come through `feed`).
   * @param trustedKeyPems the only keys accepted, when given (see `checkEvidence`).
   */
  constructor(files: ReadonlyMap<string, Buffer>, trustedKeyPems?: string | readonly string[]) {
    const trusted = typeof trustedKeyPems === 'string' ? [trustedKeyPems] : (trustedKeyPems ?? []);
    const unusable = (message: string): EvidenceReport => ({
      ok: false,
      exitCode: 2,
      events: 0,
      verified: 0,
      checkpoints: 0,
      problems: [{ message }],
      notes: this.notes,
    });
    for (const name of Object.values(EVIDENCE_FILES))
      if (name !== EVIDENCE_FILES.events && !files.has(name)) {
        this.unusable = unusable(`${name} is missing: not a Toolgate evidence bundle`);
        return;
      }
    let keys: Map<string, CheckpointPublicKey>;
    try {
      this.manifest = JSON.parse(files.get(EVIDENCE_FILES.manifest)!.toString('utf8')) as EvidenceManifest;
      if (this.manifest.kind !== EVIDENCE_KIND) {
        this.unusable = unusable(`manifest.json is not a ${EVIDENCE_KIND} manifest`);
        return;
      }
      keys = keyMap(
        trusted.length
          ? trusted
          : (
              JSON.parse(files.get(EVIDENCE_FILES.publicKeys)!.toString('utf8')) as { keys: EvidenceKey[] }
            ).keys.map((k) => k.publicKeyPem),
      );
      this.checkpoints = JSON.parse(
        files.get(EVIDENCE_FILES.checkpoints)!.toString('utf8'),
      ) as StoredCheckpoint[];
    } catch (err) {
      this.unusable = unusable(`unreadable bundle: ${(err as Error).message}`);
      return;
    }
    const m = this.manifest;
    if (trusted.length) this.notes.push(`checked against the keys given (${[...keys.keys()].join(', ')})`);
    else
      this.notes.push(
        `checked against the bundle's own key ${m.keyId}: compare it with GET /v1/audit/public-keys`,
      );

    // The manifest: signed, and every file as it lists it (events.jsonl when its bytes are all in).
    const manifestKey = keys.get(m.keyId);
    if (
      !manifestKey ||
      !manifestKey.verify(
        files.get(EVIDENCE_FILES.manifest)!,
        files.get(EVIDENCE_FILES.manifestSignature)!.toString('utf8'),
      )
    )
      this.manifestProblems.push({ message: `manifest.json is not signed by key ${m.keyId}` });
    for (const f of m.files ?? []) {
      if (f.name === EVIDENCE_FILES.events) continue;
      const body = files.get(f.name);
      if (!body) this.manifestProblems.push({ message: `${f.name}, listed in the manifest, is missing` });
      else if (sha256(body) !== f.sha256)
        this.manifestProblems.push({ message: `${f.name} does not match the SHA-256 in the manifest` });
    }

    const intervals: [number, number][] = [];
    for (const cp of this.checkpoints) {
      const problems: EvidenceProblem[] = [];
      this.perCheckpoint.push(problems);
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
      const heads = this.headsAt.get(cp.seq) ?? [];
      heads.push({ cp, problems });
      this.headsAt.set(cp.seq, heads);
      if (cp.publicDigest === undefined) continue;
      const stretch: Stretch = {
        cp,
        algorithm: digestAlgorithmOf(cp.algorithm),
        problems,
        state: 'waiting',
        digest: cp.fromHash!,
        next: cp.fromSeq! + 1,
        firstId: '',
      };
      this.stretches.push(stretch);
      const starting = this.stretchesFrom.get(stretch.next) ?? [];
      starting.push(stretch);
      this.stretchesFrom.set(stretch.next, starting);
      intervals.push([cp.fromSeq!, cp.seq]);
    }
    intervals.sort((a, b) => a[0] - b[0]);
    for (const i of intervals) {
      const last = this.covering.at(-1);
      if (last && i[0] <= last[1]) last[1] = Math.max(last[1], i[1]);
      else this.covering.push([i[0], i[1]]);
    }
  }

  /** The next bytes of `events.jsonl`. */
  feed(chunk: Buffer): void {
    if (this.unusable) return;
    this.eventsHash.update(chunk);
    let data = this.rest.length ? Buffer.concat([this.rest, chunk]) : chunk;
    for (let nl = data.indexOf(NEWLINE); nl >= 0; nl = data.indexOf(NEWLINE)) {
      this.onLine(data.subarray(0, nl));
      data = data.subarray(nl + 1);
    }
    // Copied so that the chunk it was cut from can be collected.
    this.rest = Buffer.from(data);
  }

  /** The verdict, once every byte was fed. */
  finish(): EvidenceReport {
    if (this.unusable) return this.unusable;
    if (this.rest.length) this.onLine(this.rest);
    this.rest = Buffer.alloc(0);
    const m = this.manifest;
    const listed = (m.files ?? []).find((f) => f.name === EVIDENCE_FILES.events);
    if (listed && this.eventsHash.digest('hex') !== listed.sha256)
      this.manifestProblems.push({
        message: `${EVIDENCE_FILES.events} does not match the SHA-256 in the manifest`,
      });

    const range: EvidenceProblem[] = [];
    if (this.count !== m.events)
      range.push({ message: `the manifest lists ${m.events} events, events.jsonl holds ${this.count}` });
    if (this.count && (this.minSeq !== m.firstSeq || this.maxSeq !== m.lastSeq))
      range.push({
        message: `the manifest covers seq ${m.firstSeq}–${m.lastSeq}, events.jsonl holds seq ${this.minSeq}–${this.maxSeq} (events cut off an end)`,
      });
    let verified = 0;
    for (const s of this.stretches) if (!s.problems.length) verified += s.cp.seq - s.cp.fromSeq!;
    if (this.uncovered)
      this.notes.push(
        `${this.uncovered} events (seq ${this.uncoveredMin}–${this.uncoveredMax}) are covered by no checkpoint with a public digest (signed before v1.8, or none yet): only the gateway can check them`,
      );

    const problems = [
      ...this.manifestProblems,
      ...this.parseProblems,
      ...range,
      ...this.linkProblems,
      ...this.perCheckpoint.flat(),
    ];
    const tampered = problems.filter((p) => p.seq !== undefined).sort((a, b) => a.seq! - b.seq!)[0];
    const exitCode = problems.length ? 1 : this.uncovered ? 3 : 0;
    return {
      ok: exitCode === 0,
      exitCode,
      tenantId: m.tenantId,
      events: this.count,
      verified: Math.min(verified, this.count),
      checkpoints: this.checkpoints.length,
      keyId: m.keyId,
      ...(tampered ? { firstTampered: { seq: tampered.seq!, id: tampered.id! } } : {}),
      problems,
      notes: this.notes,
    };
  }

  private onLine(bytes: Buffer): void {
    this.line++;
    const text = bytes.toString('utf8');
    if (!text.trim()) return;
    let e: EvidenceEvent;
    try {
      e = JSON.parse(text) as EvidenceEvent;
    } catch {
      this.parseProblems.push({
        message: `events.jsonl line ${this.line} is not valid JSON (damaged or edited)`,
      });
      return;
    }
    this.count++;
    this.minSeq = Math.min(this.minSeq, e.seq);
    this.maxSeq = Math.max(this.maxSeq, e.seq);
    this.link(e);
    for (const h of this.headsAt.get(e.seq) ?? [])
      if (e.hash !== h.cp.headHash)
        h.problems.push({
          message: `${at(e)} is not the event the checkpoint at seq ${h.cp.seq} signed`,
          seq: e.seq,
          id: e.id,
        });
    this.stretch(e);
    if (!this.covered(e.seq)) {
      this.uncovered++;
      this.uncoveredMin = Math.min(this.uncoveredMin, e.seq);
      this.uncoveredMax = Math.max(this.uncoveredMax, e.seq);
    }
  }

  /** Each event links to the one before it and none is missing. */
  private link(e: EvidenceEvent): void {
    const prev = this.prev;
    this.prev = e;
    if (!prev) return;
    if (e.seq === prev.seq)
      this.linkProblems.push({ message: `${at(e)} appears twice`, seq: e.seq, id: e.id });
    else if (e.seq < prev.seq)
      this.linkProblems.push({
        message: `${at(e)} is out of order (after seq ${prev.seq})`,
        seq: e.seq,
        id: e.id,
      });
    else if (e.seq !== prev.seq + 1)
      this.linkProblems.push({
        message: `event seq ${prev.seq + 1}${e.seq > prev.seq + 2 ? `–${e.seq - 1}` : ''} is missing (deleted), before ${at(e)}`,
        seq: e.seq,
        id: e.id,
      });
    else if (e.prevHash !== prev.hash)
      this.linkProblems.push({
        message: `${at(e)} does not link to the event before it (inserted, replaced or reordered)`,
        seq: e.seq,
        id: e.id,
      });
  }

  /**
   * Each stretch's public digest recomputed event by event, comparing each event's exported
   * running digest on the way (the first that differs is the event changed); when every exported
   * digest agrees and only the signed one does not, the digests were recomputed after an edit and
   * the stretch is what can be named. A stretch with an event missing stops silently: the gap is
   * a link problem already.
   */
  private stretch(e: EvidenceEvent): void {
    for (const s of this.stretchesFrom.get(e.seq) ?? []) {
      if (s.state !== 'waiting') continue;
      s.state = 'running';
      s.firstId = e.id;
      this.active.push(s);
      if (e.prevHash !== s.cp.fromHash) {
        s.state = 'over';
        s.problems.push({
          message: `${at(e)} does not link to the hash the checkpoint at seq ${s.cp.seq} starts from`,
          seq: e.seq,
          id: e.id,
        });
      }
    }
    if (!this.active.length) return;
    for (const s of this.active) {
      if (s.state !== 'running') continue;
      if (e.seq !== s.next) {
        s.state = 'over';
        continue;
      }
      s.next++;
      const canonical = publicCanonical({ ...e, occurredAt: new Date(e.occurredAt) }, e.seq);
      s.digest = nextPublicDigest(s.digest, e.prevHash, e.hash, canonical, s.algorithm);
      if (e.publicDigest !== s.digest) {
        s.state = 'over';
        s.problems.push({
          message: `${at(e)} was changed: its content does not match the public digest of its stretch (checkpoint at seq ${s.cp.seq})`,
          seq: e.seq,
          id: e.id,
        });
      } else if (e.seq === s.cp.seq) {
        s.state = 'over';
        if (s.digest !== s.cp.publicDigest)
          s.problems.push({
            message: `the events seq ${s.cp.fromSeq! + 1}–${s.cp.seq} do not match the public digest the checkpoint signed at ${s.cp.signedAt}: changed, and the exported digests recomputed`,
            seq: s.cp.fromSeq! + 1,
            id: s.firstId,
          });
      }
    }
    this.active = this.active.filter((s) => s.state === 'running');
  }

  private covered(seq: number): boolean {
    let [lo, hi] = [0, this.covering.length - 1];
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [from, to] = this.covering[mid]!;
      if (seq <= from) hi = mid - 1;
      else if (seq > to) lo = mid + 1;
      else return true;
    }
    return false;
  }
}

/** The keys by the ids computed from them (a listed id is not taken on trust). */
function keyMap(pems: readonly string[]): Map<string, CheckpointPublicKey> {
  return new Map(pems.map((pem) => checkpointPublicKeyFromPem(pem)).map((k) => [k.keyId, k]));
}
