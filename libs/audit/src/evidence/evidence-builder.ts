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
import { zipFiles } from './zip.js';

/** Events one bundle holds at most: it is built in memory. Ask for a narrower range beyond. */
export const MAX_EVIDENCE_EVENTS = 500_000;

/** An evidence bundle: the ZIP, and its manifest (for the file name and logs). */
export interface EvidenceBundle {
  readonly zip: Buffer;
  readonly manifest: EvidenceManifest;
}

/**
 * Builds evidence bundles (ADR 030): a tenant's events of a time range, widened to whole
 * checkpoint stretches so that every event is covered by a signed public digest, with the
 * checkpoints, the public key, a signed manifest and a README on how to check it all offline.
 */
@Injectable()
export class EvidenceBuilder {
  constructor(
    private readonly events: AuditEventsRepository,
    private readonly checkpoints: CheckpointRepository,
    private readonly service: CheckpointService,
    @Optional() private readonly retention?: RetentionRepository,
  ) {}

  async build(tenantId: string, range: { from?: Date; to?: Date }): Promise<EvidenceBundle> {
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
    if (end - start > MAX_EVIDENCE_EVENTS)
      throw new ToolgateError(ErrorCode.INVALID_INPUT, {
        params: {
          summary: `the range holds ${end - start} events, more than the ${MAX_EVIDENCE_EVENTS} one evidence file holds: ask for a shorter one`,
        },
      });
    const lines = await this.lines(tenantId, start, end, stretches);
    const shown = all.filter((c) => c.seq > start && c.seq <= end && c.publicDigest === undefined);
    const files = new Map<string, Buffer>([
      [EVIDENCE_FILES.events, Buffer.from(lines.text)],
      [
        EVIDENCE_FILES.checkpoints,
        Buffer.from(
          `${JSON.stringify(
            [...shown, ...stretches].sort((a, b) => a.seq - b.seq),
            null,
            2,
          )}\n`,
        ),
      ],
      [
        EVIDENCE_FILES.publicKeys,
        Buffer.from(`${JSON.stringify({ keys: this.service.publicKeys() }, null, 2)}\n`),
      ],
      [EVIDENCE_FILES.readme, Buffer.from(EVIDENCE_README)],
    ]);
    const manifest: EvidenceManifest = {
      kind: EVIDENCE_KIND,
      version: 1,
      tenantId,
      from: range.from?.toISOString() ?? null,
      to: range.to?.toISOString() ?? null,
      firstSeq: lines.count ? start + 1 : null,
      lastSeq: lines.count ? end : null,
      events: lines.count,
      generatedAt: new Date().toISOString(),
      keyId: this.service.signer.keyId,
      files: [...files].map(([name, body]) => ({ name, bytes: body.length, sha256: sha256Hex(body) })),
    };
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    const zip = zipFiles([
      { name: EVIDENCE_FILES.manifest, data: manifestBytes },
      {
        name: EVIDENCE_FILES.manifestSignature,
        data: Buffer.from(`${this.service.signer.signDocument(manifestBytes)}\n`),
      },
      ...[...files].map(([name, data]) => ({ name, data })),
    ]);
    return { zip, manifest };
  }

  /** The events `start < seq <= end` as JSON lines, each with the running digest of its stretch. */
  private async lines(
    tenantId: string,
    start: number,
    end: number,
    stretches: readonly StoredCheckpoint[],
  ): Promise<{ text: string; count: number }> {
    const byStart = new Map(stretches.map((c) => [c.fromSeq!, c]));
    const out: string[] = [];
    let current: StoredCheckpoint | undefined;
    let digest = '';
    for await (const chunk of this.events.bySeq(tenantId, start, end)) {
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
    }
    return { text: out.length ? `${out.join('\n')}\n` : '', count: out.length };
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
