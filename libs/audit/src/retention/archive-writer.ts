import { createGzip } from 'node:zlib';
import { Inject, Injectable } from '@nestjs/common';
import { TransactionRunner } from '@toolgate/database';
import { sha256Hex } from '@toolgate/toolkit';
import { ARCHIVE_STORE, type ArchiveStore } from '../archive/archive-store.js';
import { eventName } from '../chain/chain-walk.js';
import { CheckpointRepository, type StoredCheckpoint } from '../chain/checkpoint.repository.js';
import { CheckpointService } from '../chain/checkpoint.service.js';
import { publicCanonical } from '../chain/event-hash.js';
import { nextPublicDigest } from '../chain/public-digest.js';
import { evidenceLine } from '../evidence/evidence-format.js';
import { AuditEventsRepository } from '../query/audit-events.repository.js';
import { ARCHIVE_KIND, publicKeyKey, rangeKeys, type ArchiveManifest } from './archive-format.js';
import { AUDIT_OPTIONS, type AuditOptions } from '../audit.options.js';
import { RetentionRepository } from './retention.repository.js';
import { WorkPacer } from './work-pacer.js';

/** Events one archived file holds at most (a busy day becomes several files, each ending at a checkpoint). */
export const MAX_RANGE_EVENTS = 200_000;
const DAY_MS = 86_400_000;
/**
 * Events read and written per step: a step's hashing and JSON hold the event loop for a few ms
 * only, and the rest between steps (`workShare`) lets the calls beside it through.
 */
const ARCHIVE_PAGE = 100;

/** What archiving one tenant did. */
export interface TenantArchiveRun {
  readonly files: number;
  readonly events: number;
  /** The archive cursor after the run. */
  readonly through: number;
  /** Why it stopped short: the chain does not match its checkpoints, or the store failed. */
  readonly problem?: string;
}

/** A range that must not be archived: what the database holds is not what the checkpoint signed. */
class RangeRefused extends Error {}

/**
 * Writes closed ranges of each tenant's chain to the archive store (ADR 037): the events
 * checkpointed on one UTC day, from the end of the previous range to the newest checkpoint signed
 * that day, as gzipped JSON lines (every chain field and the running public digest, as in evidence
 * files), with a signed manifest. A range always ends at a signed checkpoint, so every archived
 * event is vouched for by a signature, and a purge boundary is always a checkpoint's head.
 *
 * Several gateways may run it: a range is written with identical bytes by whoever writes it, and
 * the archive cursor moves only from where it stood (compare-and-move, as the call projector's).
 */
@Injectable()
export class ArchiveWriter {
  private keyPublished = false;

  constructor(
    @Inject(ARCHIVE_STORE) private readonly store: ArchiveStore,
    private readonly checkpoints: CheckpointRepository,
    private readonly service: CheckpointService,
    private readonly events: AuditEventsRepository,
    private readonly repo: RetentionRepository,
    private readonly transactions: TransactionRunner,
    @Inject(AUDIT_OPTIONS) private readonly options: AuditOptions,
  ) {}

  /**
   * Archives a tenant's closed ranges: with `wholeDays`, only days that are over (UTC); without,
   * the day so far too, up to its newest checkpoint.
   */
  async archiveTenant(tenantId: string, o: { wholeDays: boolean; now?: Date }): Promise<TenantArchiveRun> {
    const now = (o.now ?? new Date()).getTime();
    let cursor = await this.repo.archiveCursor(tenantId);
    const all = await this.checkpoints.list(tenantId);
    let files = 0;
    let events = 0;
    await this.publishKey();
    for (;;) {
      const after = all.filter((c) => c.seq > cursor.seq);
      if (!after.length) break;
      // The range of one day: every checkpoint signed that day, up to the file's cap.
      const day = after[0]!.signedAt.slice(0, 10);
      const dayEnd = Date.parse(`${day}T00:00:00.000Z`) + DAY_MS;
      if (o.wholeDays && now < dayEnd) break;
      const sameDay = after.filter(
        (c) => Date.parse(c.signedAt) < dayEnd && c.seq - cursor.seq <= MAX_RANGE_EVENTS,
      );
      const end = sameDay.at(-1) ?? after[0]!;
      try {
        await this.writeRange(tenantId, day, cursor, end, all);
      } catch (err) {
        const problem =
          err instanceof RangeRefused
            ? err.message
            : `archive store ${this.store.location}: ${(err as Error).message}`;
        return { files, events, through: cursor.seq, problem };
      }
      const moved = await this.transactions.run((em) =>
        this.repo.moveArchiveCursor(em, tenantId, cursor.seq, { seq: end.seq, hash: end.headHash }),
      );
      if (!moved) break; // another gateway archived this range meanwhile (the same bytes)
      files++;
      events += end.seq - cursor.seq;
      cursor = { ...cursor, seq: end.seq, hash: end.headHash };
    }
    return { files, events, through: cursor.seq };
  }

  /** The key that signs manifests and checkpoints, beside them, so the archive checks on its own. */
  private async publishKey(): Promise<void> {
    if (this.keyPublished) return;
    for (const k of this.service.publicKeys())
      await this.store.put(publicKeyKey(k.keyId), `${JSON.stringify(k, null, 2)}\n`);
    this.keyPublished = true;
  }

  /** Writes the events after `from` up to checkpoint `end`: the file, the signature, then the manifest. */
  private async writeRange(
    tenantId: string,
    day: string,
    from: { seq: number; hash: string },
    end: StoredCheckpoint,
    all: readonly StoredCheckpoint[],
  ): Promise<void> {
    const inRange = all.filter((c) => c.seq > from.seq && c.seq <= end.seq);
    const bySeq = new Map(inRange.map((c) => [c.seq, c]));
    const opening = new Map(
      inRange
        .filter((c) => c.publicDigest !== undefined && c.fromSeq! >= from.seq)
        .map((c) => [c.fromSeq!, c]),
    );
    const gzip = createGzip();
    const out: Buffer[] = [];
    gzip.on('data', (chunk: Buffer) => out.push(chunk));
    const ended = new Promise<void>((resolve, reject) => gzip.on('end', resolve).on('error', reject));
    let prev = { seq: from.seq, hash: from.hash };
    let current: StoredCheckpoint | undefined;
    let digest = '';
    let first: { occurredAt: Date } | undefined;
    let last: { occurredAt: Date } | undefined;
    const pacer = new WorkPacer(this.options.retention.workShare);
    for await (const chunk of this.events.bySeq(tenantId, from.seq, end.seq, ARCHIVE_PAGE)) {
      await pacer.rest();
      for (const e of chunk) {
        if (e.seq !== prev.seq + 1)
          throw new RangeRefused(`event seq ${prev.seq + 1} is missing before ${eventName(e)}`);
        if (e.prevHash !== prev.hash)
          throw new RangeRefused(`${eventName(e)} does not link to the event before it`);
        const opens = opening.get(e.seq - 1);
        if (opens) [current, digest] = [opens, opens.fromHash!];
        if (current) digest = nextPublicDigest(digest, e.prevHash, e.hash, publicCanonical(e, e.seq));
        const cp = bySeq.get(e.seq);
        if (cp && cp.headHash !== e.hash)
          throw new RangeRefused(`${eventName(e)} is not the event the checkpoint at seq ${cp.seq} signed`);
        if (current && e.seq === current.seq) {
          if (digest !== current.publicDigest)
            throw new RangeRefused(
              `the events before ${eventName(e)} do not match the public digest the checkpoint at seq ${current.seq} signed`,
            );
        }
        if (!gzip.write(`${evidenceLine(e, current ? digest : null)}\n`))
          await new Promise<void>((resolve) => gzip.once('drain', resolve));
        if (current && e.seq === current.seq) current = undefined;
        first ??= e;
        last = e;
        prev = { seq: e.seq, hash: e.hash };
      }
    }
    gzip.end();
    await ended;
    if (prev.seq !== end.seq || !first || !last)
      throw new RangeRefused(
        `events ${prev.seq + 1}–${end.seq} are not in the database (purged or deleted): the range cannot be archived`,
      );
    const body = Buffer.concat(out);
    const keys = rangeKeys(tenantId, from.seq + 1, end.seq, day);
    const manifest: ArchiveManifest = {
      kind: ARCHIVE_KIND,
      version: 1,
      tenantId,
      day,
      firstSeq: from.seq + 1,
      lastSeq: end.seq,
      firstPrevHash: from.hash,
      lastHash: end.headHash,
      events: end.seq - from.seq,
      firstOccurredAt: first.occurredAt.toISOString(),
      lastOccurredAt: last.occurredAt.toISOString(),
      file: keys.events,
      bytes: body.length,
      sha256: sha256Hex(body),
      checkpoint: end,
      checkpoints: inRange,
      keyId: this.service.signer.keyId,
    };
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    await this.store.put(keys.events, body);
    await this.store.put(keys.signature, `${this.service.signer.signDocument(manifestBytes)}\n`);
    await this.store.put(keys.manifest, manifestBytes);
  }
}
