import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { sha256Hex } from '@toolgate/toolkit';
import { CheckpointRepository, type StoredCheckpoint } from '../chain/checkpoint.repository.js';
import { ARCHIVE_STORE, type ArchiveStore } from './archive-store.js';

const PREFIX = 'checkpoints/';
/** Seqs padded so that keys sort by seq. */
const SEQ_DIGITS = 20;

/** Which checkpoint an exported object holds, from its key alone: its seq and signature. */
const fingerprint = (cp: Pick<StoredCheckpoint, 'signature'>) => sha256Hex(cp.signature).slice(0, 16);
const tenantPrefix = (tenantId: string) => `${PREFIX}${encodeURIComponent(tenantId)}/`;
const keyOf = (cp: StoredCheckpoint) =>
  `${tenantPrefix(cp.tenantId)}${String(cp.seq).padStart(SEQ_DIGITS, '0')}-${fingerprint(cp)}.json`;

/**
 * Every signed checkpoint, exported to the archive store as it is signed (ADR 030): a copy the
 * database cannot take back. Verification holds the chain against these copies too, so deleting
 * the newest events together with the head and the checkpoint rows that covered them is caught.
 *
 * Exports are written off the checkpoint's path, one after another in the background; a failed or
 * lost one (the process died first) is written by the next boot's catch-up, which exports every
 * stored checkpoint the store lacks.
 */
@Injectable()
export class CheckpointArchive implements OnApplicationBootstrap {
  private readonly logger = new Logger('AuditArchive');
  private queue: Promise<void> = Promise.resolve();

  constructor(
    @Inject(ARCHIVE_STORE) private readonly store: ArchiveStore,
    private readonly checkpoints: CheckpointRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.queue = this.queue.then(() =>
      this.catchUp().catch((err: Error) =>
        this.logger.warn(`checkpoint export catch-up failed: ${err.message}`),
      ),
    );
  }

  /** Queues a checkpoint's export; returns at once. */
  export(cp: StoredCheckpoint): void {
    this.queue = this.queue.then(() =>
      this.store
        .put(keyOf(cp), `${JSON.stringify(cp)}\n`)
        .catch((err: Error) =>
          this.logger.error(
            `checkpoint ${cp.tenantId}@${cp.seq} not exported to ${this.store.location}: ${err.message}`,
          ),
        ),
    );
  }

  /** Resolves once every export queued so far is written (or has failed and been logged). */
  flush(): Promise<void> {
    return this.queue;
  }

  /**
   * The exported checkpoints of a tenant that are not among `known` (those the database still
   * has), oldest first. Only their keys are listed for the others, so a verification reads the
   * objects of checkpoints the database lost — normally none.
   */
  async exportedBeyond(tenantId: string, known: readonly StoredCheckpoint[]): Promise<StoredCheckpoint[]> {
    const have = new Set(known.map(keyOf));
    const out: StoredCheckpoint[] = [];
    for (const key of await this.store.list(tenantPrefix(tenantId))) {
      if (have.has(key)) continue;
      const body = await this.store.get(key);
      if (body) out.push(parseCheckpoint(body, key, tenantId));
    }
    return out;
  }

  /** Exports every stored checkpoint the store does not have. */
  private async catchUp(): Promise<void> {
    let written = 0;
    for (const tenantId of await this.checkpoints.chainTenants()) {
      const present = new Set(await this.store.list(tenantPrefix(tenantId)));
      for (const cp of await this.checkpoints.list(tenantId)) {
        if (present.has(keyOf(cp))) continue;
        await this.store.put(keyOf(cp), `${JSON.stringify(cp)}\n`);
        written++;
      }
    }
    if (written) this.logger.log(`exported ${written} checkpoints missing from ${this.store.location}`);
  }
}

/**
 * An exported checkpoint as stored. Its signature is checked by the verifier like any other; a
 * file that is not a checkpoint of this tenant is reported as one that does not verify.
 */
function parseCheckpoint(body: Buffer, key: string, tenantId: string): StoredCheckpoint {
  try {
    const cp = JSON.parse(body.toString('utf8')) as StoredCheckpoint;
    if (cp.tenantId === tenantId && Number.isSafeInteger(cp.seq) && typeof cp.signature === 'string')
      return cp;
  } catch {
    // reported below
  }
  const seq = Number(/(\d+)-[0-9a-f]+\.json$/.exec(key)?.[1] ?? 0);
  return { tenantId, seq, headHash: '', signedAt: `exported object ${key}`, keyId: '', signature: '' };
}
