import { Inject, Injectable } from '@nestjs/common';
import { ARCHIVE_STORE, type ArchiveStore } from '../archive/archive-store.js';
import type { ChainPosition } from '../chain/chain-walk.js';
import type { StoredCheckpoint } from '../chain/checkpoint.repository.js';
import { rangeOfKey, tenantArchivePrefix, type ArchiveManifest } from './archive-format.js';
import { RetentionRepository } from './retention.repository.js';

/** Why a purge boundary cannot be trusted (reported by verify like any break). */
export interface BoundaryProblem {
  readonly problem: string;
}

/**
 * Where a purged chain starts for verification (ADR 037). The events up to the boundary are gone
 * from the database; the boundary row says where the chain resumes (seq and hash of the last purged
 * event, and whether its link was keyed). A row anyone with database access could write is not
 * believed alone: the archive store — outside the database — must hold a signed range ending there,
 * whose manifest states the same hash. The next event's keyed link then ties the chain in the
 * database to it, as it ties any event to the one before.
 */
@Injectable()
export class PurgeBoundaries {
  constructor(
    private readonly repo: RetentionRepository,
    @Inject(ARCHIVE_STORE) private readonly store: ArchiveStore,
  ) {}

  /** The position after the purged events, or null when nothing was purged, or why it is not believed. */
  async startOf(tenantId: string): Promise<ChainPosition | BoundaryProblem | null> {
    const b = await this.repo.boundary(tenantId);
    if (!b || b.seq === 0) return null;
    const keys = await this.store.list(tenantArchivePrefix(tenantId));
    const ending = keys.find((k) => rangeOfKey(k)?.lastSeq === b.seq);
    if (!ending) {
      const covering = keys.some((k) => {
        const r = rangeOfKey(k);
        return r && r.firstSeq <= b.seq && b.seq < r.lastSeq;
      });
      // A purge in progress stops inside a range (between batches); the range is archived whole.
      if (covering) return { seq: b.seq, hash: b.hash, keyed: b.keyed };
      return {
        problem: `events up to seq ${b.seq} were removed from the database, but the archive (${this.store.location}) holds no range that covers them (deleted without archiving)`,
      };
    }
    const body = await this.store.get(ending);
    let manifest: ArchiveManifest | undefined;
    try {
      manifest = body ? (JSON.parse(body.toString('utf8')) as ArchiveManifest) : undefined;
    } catch {
      manifest = undefined;
    }
    if (!manifest || manifest.lastHash !== b.hash)
      return {
        problem: `the purge boundary at seq ${b.seq} does not match the archived range ending there (${ending}): moved or forged`,
      };
    return { seq: b.seq, hash: b.hash, keyed: b.keyed };
  }

  /** The position at a checkpoint whose event was purged: the boundary, when it is exactly there. */
  async positionAt(cp: StoredCheckpoint): Promise<ChainPosition | null> {
    const b = await this.repo.boundary(cp.tenantId);
    if (!b || b.seq !== cp.seq || b.hash !== cp.headHash) return null;
    return { seq: b.seq, hash: b.hash, keyed: b.keyed };
  }
}

/** Tells a boundary problem from a position. */
export const isBoundaryProblem = (r: ChainPosition | BoundaryProblem): r is BoundaryProblem => 'problem' in r;
