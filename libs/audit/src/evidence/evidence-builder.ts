import { createHash } from 'node:crypto';
import type { Writable } from 'node:stream';
import { Injectable, Optional } from '@nestjs/common';
import { ErrorCode, sha256Hex, ToolgateError } from '@toolgate/toolkit';
import { CheckpointRepository, type StoredCheckpoint } from '../chain/checkpoint.repository.js';
import { CheckpointService } from '../chain/checkpoint.service.js';
import { digestAlgorithmOf } from '../chain/crypto-suite.js';
import { publicCanonical } from '../chain/event-hash.js';
import { nextPublicDigest } from '../chain/public-digest.js';
import { AuditEventsRepository } from '../query/audit-events.repository.js';
import { RetentionRepository } from '../retention/retention.repository.js';
import { EVIDENCE_FILES, EVIDENCE_KIND, evidenceLine, type EvidenceManifest } from './evidence-format.js';
import { EVIDENCE_README } from './evidence-readme.js';
import { ZipStreamWriter } from './zip-writer.js';

/** What an evidence file will hold, decided before a byte of it is written. */
export interface EvidencePlan {
  readonly tenantId: string;
  readonly from: Date | undefined;
  readonly to: Date | undefined;
  /** The events `start < seq <= end`. */
  readonly start: number;
  readonly end: number;
  /** The checkpoints listed, oldest first; `stretches` those whose public digests the events carry. */
  readonly checkpoints: readonly StoredCheckpoint[];
  readonly stretches: readonly StoredCheckpoint[];
}

/** The manifest of a written evidence file, and the file's size in bytes. */
export interface EvidenceWritten {
  readonly manifest: EvidenceManifest;
  readonly bytes: number;
}

/** Events read from the database per page while an evidence file is written. */
const PAGE = 1000;

/**
 * Builds evidence bundles (ADR 030): a tenant's events of a time range, widened to whole
 * checkpoint stretches so that every event is covered by a signed public digest, with the
 * checkpoints, the public key, a signed manifest and a README on how to check it all offline.
 *
 * The file is streamed (ADR 046): `plan` decides the range and refuses a broken chain while an
 * error can still be an answer; `write` then reads the events a page at a time and writes the ZIP
 * as it goes, hashing `events.jsonl` on the way, and puts the manifest and its signature last.
 * Memory stays flat whatever the range holds.
 */
@Injectable()
export class EvidenceBuilder {
  constructor(
    private readonly events: AuditEventsRepository,
    private readonly checkpoints: CheckpointRepository,
    private readonly service: CheckpointService,
    @Optional() private readonly retention?: RetentionRepository,
  ) {}

  async plan(tenantId: string, range: { from?: Date; to?: Date }): Promise<EvidencePlan> {
    // Sign the tail first, so that the newest events of the range are covered too. A chain that
    // does not verify gets no checkpoint, and no evidence either: it would vouch for a forgery.
    const run = await this.service.run([tenantId]);
    if (run.refused.length)
      throw new ToolgateError(ErrorCode.AUDIT_CHAIN_BROKEN, {
        params: { summary: run.refused.map((r) => `${r.tenantId}: ${r.problem}`).join('; ') },
        details: { refused: run.refused },
      });
    const bounds = await this.events.seqBounds(tenantId, range.from, range.to);
    // Stretches that begin before the purge boundary (ADR 037) are in the archive, not here.
    const purged = (await this.retention?.boundary(tenantId))?.seq ?? 0;
    const all = (await this.checkpoints.list(tenantId)).filter(
      (c) => c.seq > purged && (c.fromSeq ?? purged) >= purged,
    );
    const stretches = bounds ? covering(contiguousStretches(all), bounds) : [];
    const start = Math.min(bounds ? bounds.min - 1 : 0, stretches[0]?.fromSeq ?? Infinity);
    const end = Math.max(bounds?.max ?? 0, stretches.at(-1)?.seq ?? 0);
    const shown = all.filter((c) => c.seq > start && c.seq <= end && c.publicDigest === undefined);
    return {
      tenantId,
      from: range.from,
      to: range.to,
      start,
      end,
      checkpoints: [...shown, ...stretches].sort((a, b) => a.seq - b.seq),
      stretches,
    };
  }

  /** The manifest `plan` promises, before the file is written (for the record of the download). */
  expected(plan: EvidencePlan): EvidenceManifest {
    const some = plan.end > plan.start;
    return this.manifest(plan, {
      firstSeq: some ? plan.start + 1 : null,
      lastSeq: some ? plan.end : null,
      events: plan.end - plan.start,
      files: [],
    });
  }

  /** Writes the evidence ZIP of `plan` to `out` (not ended), with backpressure. */
  async write(plan: EvidencePlan, out: Writable): Promise<EvidenceWritten> {
    const zip = new ZipStreamWriter(out);
    const listed: { name: string; bytes: number; sha256: string }[] = [];
    const hash = createHash('sha256');
    let bytes = 0;
    let count = 0;
    let first: number | null = null;
    let last: number | null = null;
    const events = async function* (this: EvidenceBuilder): AsyncGenerator<Buffer> {
      for await (const page of this.lines(plan)) {
        const chunk = Buffer.from(`${page.lines.join('\n')}\n`);
        hash.update(chunk);
        bytes += chunk.length;
        count += page.lines.length;
        first ??= page.first;
        last = page.last;
        yield chunk;
      }
    }.call(this);
    await zip.addStream(EVIDENCE_FILES.events, events);
    listed.push({ name: EVIDENCE_FILES.events, bytes, sha256: hash.digest('hex') });
    const small: [string, Buffer][] = [
      [EVIDENCE_FILES.checkpoints, Buffer.from(`${JSON.stringify(plan.checkpoints, null, 2)}\n`)],
      [
        EVIDENCE_FILES.publicKeys,
        Buffer.from(`${JSON.stringify({ keys: this.service.publicKeys() }, null, 2)}\n`),
      ],
      [EVIDENCE_FILES.readme, Buffer.from(EVIDENCE_README)],
    ];
    for (const [name, data] of small) {
      await zip.add(name, data);
      listed.push({ name, bytes: data.length, sha256: sha256Hex(data) });
    }
    const manifest = this.manifest(plan, { firstSeq: first, lastSeq: last, events: count, files: listed });
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    await zip.add(EVIDENCE_FILES.manifest, manifestBytes);
    await zip.add(
      EVIDENCE_FILES.manifestSignature,
      Buffer.from(`${this.service.signer.signDocument(manifestBytes)}\n`),
    );
    await zip.finish();
    return { manifest, bytes: zip.bytes };
  }

  private manifest(
    plan: EvidencePlan,
    held: Pick<EvidenceManifest, 'firstSeq' | 'lastSeq' | 'events' | 'files'>,
  ): EvidenceManifest {
    return {
      kind: EVIDENCE_KIND,
      version: 1,
      tenantId: plan.tenantId,
      from: plan.from?.toISOString() ?? null,
      to: plan.to?.toISOString() ?? null,
      firstSeq: held.firstSeq,
      lastSeq: held.lastSeq,
      events: held.events,
      generatedAt: new Date().toISOString(),
      keyId: this.service.signer.keyId,
      files: held.files,
    };
  }

  /** The events `start < seq <= end` as JSON lines, a page at a time, each with the running digest of its stretch. */
  private async *lines(plan: EvidencePlan): AsyncGenerator<{ lines: string[]; first: number; last: number }> {
    const byStart = new Map(plan.stretches.map((c) => [c.fromSeq!, c]));
    let current: StoredCheckpoint | undefined;
    let digest = '';
    for await (const chunk of this.events.bySeq(plan.tenantId, plan.start, plan.end, PAGE)) {
      const out: string[] = [];
      for (const e of chunk) {
        const opening = byStart.get(e.seq - 1);
        if (opening) [current, digest] = [opening, opening.fromHash!];
        if (current)
          digest = nextPublicDigest(
            digest,
            e.prevHash,
            e.hash,
            publicCanonical(e, e.seq),
            digestAlgorithmOf(current.algorithm),
          );
        out.push(evidenceLine(e, current ? digest : null));
        if (current && e.seq === current.seq) current = undefined;
      }
      if (out.length) yield { lines: out, first: chunk[0]!.seq, last: chunk.at(-1)!.seq };
    }
  }
}

/**
 * The checkpoints with a public digest that follow one another (each starts where the one before
 * ended), oldest first. Two checkpoints signed at once from the same start overlap; the walk keeps
 * the first and the next one that starts where it ends.
 */
function contiguousStretches(all: readonly StoredCheckpoint[]): StoredCheckpoint[] {
  const out: StoredCheckpoint[] = [];
  for (const c of all) {
    if (c.publicDigest === undefined || c.fromSeq === undefined) continue;
    const last = out.at(-1);
    if (!last || c.fromSeq === last.seq) out.push(c);
    else if (c.fromSeq > last.seq) out.splice(0, out.length, c);
  }
  return out;
}

/** The stretches that hold at least one event of `min … max`. */
function covering(
  stretches: readonly StoredCheckpoint[],
  b: { min: number; max: number },
): StoredCheckpoint[] {
  return stretches.filter((c) => c.seq >= b.min && c.fromSeq! < b.max);
}
