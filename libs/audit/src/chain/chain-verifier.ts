import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { isMysql } from '@toolgate/database';
import {
  And,
  LessThanOrEqual,
  MoreThanOrEqual,
  type EntityManager,
  type FindOptionsWhere,
  type Repository,
} from 'typeorm';
import { CheckpointArchive } from '../archive/checkpoint-archive.js';
import { AUDIT_OPTIONS, linkKeysOf, type AuditOptions } from '../audit.options.js';
import { GENESIS_HASH } from '../audit-event.js';
import type { AuditEventRecord } from '../audit-fields.js';
import { AuditEventEntity } from '../entities/audit-event.entity.js';
import { isBoundaryProblem, PurgeBoundaries } from '../retention/purge-boundaries.js';
import { ChainWalk, eventName, GENESIS_POSITION, type ChainPosition } from './chain-walk.js';
import { CheckpointRepository, type ChainHead, type StoredCheckpoint } from './checkpoint.repository.js';
import type { CheckpointSigner } from './checkpoint-signer.js';
import type { DigestAlgorithm } from './crypto-suite.js';
import { isKeyedLink, linkVersionOf, type LinkKeys } from './event-hash.js';
import { toRecord } from './event-mapping.js';
import { eventSeqBounds, seqWindows } from './seq-window.js';
import { yieldIfSliceSpent } from './time-slice.js';

/**
 * Events read per round: SQLite reads them synchronously (large inputs included), so few at a time;
 * MariaDB's arrive while the event loop runs, and fewer rounds are fewer waits for the database
 * (100k events: 1,000 rounds of 100 cost more in socket writes and wake-ups than the reads, ADR 051).
 */
const CHUNK = { sqlite: 100, mysql: 500 };
/** Breaks listed per tenant at most; past that the chain is rewritten wholesale, not edited. */
export const MAX_BREAKS = 100;
const EMPTY_HEAD: ChainHead = { seq: 0, headHash: GENESIS_HASH };

/** The verdict on one tenant's chain. */
export interface TenantVerification {
  readonly tenantId: string;
  readonly ok: boolean;
  readonly checked: number;
  readonly checkpoints: number;
  /** The first event found modified, inserted or out of place (or, for a re-hashed stretch, the first event after the last good checkpoint). */
  readonly firstBrokenEventId?: string;
  readonly firstBrokenSeq?: number;
  readonly problem?: string;
  /** Every break found, first first (at most MAX_BREAKS); the first is the one above. */
  readonly breaks?: readonly TenantBreak[];
  /** An incremental verification began after this seq (its newest checkpoint); absent for a full one. */
  readonly verifiedFromSeq?: number;
  /** Events up to this seq were archived and purged (ADR 037): verification starts after them. */
  readonly purgedThroughSeq?: number;
}

/** One place a chain does not verify. */
export interface TenantBreak {
  readonly problem: string;
  readonly eventId?: string;
  readonly seq?: number;
}

/** How much of a verification is done, for a background job's progress. */
export type VerifyProgress = (checkedSoFar: number) => void;

/** The verdict on every tenant asked for. */
export interface Verification {
  readonly ok: boolean;
  readonly checked: number;
  readonly firstBrokenEventId?: string;
  readonly problem?: string;
  readonly tenants: readonly TenantVerification[];
}

/** Why a stretch of a chain does not verify, and the first event concerned when there is one. */
export interface ChainProblem {
  readonly problem: string;
  readonly event?: { readonly id: string; readonly seq: number };
}

/** Tells a problem from a position (what the walks below return). */
export function isChainProblem(r: ChainPosition | ChainProblem): r is ChainProblem {
  return 'problem' in r;
}

interface Range {
  from?: Date;
  to?: Date;
}

/**
 * Recomputes chains and holds them against the signed checkpoints. The keyed links catch edits,
 * inserts, deletions in the middle and events appended by anyone without the chain key; the
 * checkpoints catch deleting the newest events, and re-hashing by someone who has the chain key
 * but not the signing key.
 *
 * Reads in an order that gives one consistent view while writers keep appending (ADR 009):
 * checkpoints, then the chain head, then only events up to that head. A checkpoint read earlier is
 * never ahead of a head read later, and every event up to a committed head is committed, because
 * the head moves in the same transaction as its events.
 */
@Injectable()
export class ChainVerifier {
  private readonly keys: LinkKeys;

  constructor(
    @InjectRepository(AuditEventEntity) private readonly events: Repository<AuditEventEntity>,
    private readonly checkpoints: CheckpointRepository,
    private readonly archive: CheckpointArchive,
    @Inject(AUDIT_OPTIONS) options: AuditOptions,
    @Optional() private readonly purged?: PurgeBoundaries,
  ) {
    this.keys = linkKeysOf(options);
  }

  /** Verifies the chains of the given tenants, whole or within a time range (see TenantVerification). */
  async verify(
    signer: CheckpointSigner,
    tenantIds: readonly string[],
    range: Range = {},
    o: { incremental?: boolean; onProgress?: VerifyProgress } = {},
  ): Promise<Verification> {
    const tenants: TenantVerification[] = [];
    let before = 0;
    for (const tenantId of tenantIds) {
      const progress = o.onProgress && ((n: number) => o.onProgress!(before + n));
      const verdict = o.incremental
        ? await this.verifyTenantIncremental(signer, tenantId)
        : await this.verifyTenant(signer, tenantId, range, progress);
      tenants.push(verdict);
      before += verdict.checked;
      o.onProgress?.(before);
    }
    return summary(tenants);
  }

  /**
   * Verifies a tenant from its newest checkpoint (the database's or an exported copy) to the head:
   * the checkpoint's signature and its event, then every event since. A checkpoint is signed only
   * over events that verified (ADR 009), so one more day costs one day's walk. What it does not
   * read again — the events the checkpoints cover — only a full verification checks again.
   */
  private async verifyTenantIncremental(
    signer: CheckpointSigner,
    tenantId: string,
  ): Promise<TenantVerification> {
    const stored = await this.checkpoints.list(tenantId);
    const exported = await this.archive.exportedBeyond(tenantId, stored);
    const all = exported.length ? [...stored, ...exported].sort((a, b) => a.seq - b.seq) : stored;
    const head = (await this.checkpoints.chainHead(tenantId)) ?? EMPTY_HEAD;
    const newest = all.at(-1);
    const purged = await this.purgedStart(tenantId);
    const base = {
      tenantId,
      checkpoints: all.length,
      verifiedFromSeq: newest?.seq ?? 0,
      ...(purged && !isChainProblem(purged) ? { purgedThroughSeq: purged.seq } : {}),
    };
    const broken = (p: ChainProblem): TenantVerification => ({ ...base, ...verdictOf(0, [p]) });
    if (purged && isChainProblem(purged)) return broken(purged);
    if (newest && !signer.verify(newest, newest.signature))
      return broken({
        problem: `checkpoint at seq ${newest.seq} has an invalid signature (forged or signed with another key)`,
      });
    const start = newest ? await this.positionAt(newest) : GENESIS_POSITION;
    if (isChainProblem(start)) return broken(start);
    const reached = await this.walkTo(tenantId, start, head);
    if (isChainProblem(reached)) return broken(reached);
    const intruder = await this.checkpoints.firstEventPastHead(tenantId);
    if (intruder)
      return broken({
        problem: `events after seq ${head.seq} were not written by the gateway (the chain head records ${head.seq}): inserted, first ${eventName(intruder)}`,
        event: intruder,
      });
    return { ...base, ...verdictOf(head.seq - start.seq, []) };
  }

  /**
   * Verifies the events after `from` up to `head`: each links to the one before, and the last is
   * the one the head records. Returns the position reached, or the first problem. With `em`, reads
   * in that transaction (the checkpoint's, under the chain lock). A `from` that carries a public
   * digest has it carried on with `digest` (the hash of the checkpoint being sealed).
   */
  async walkTo(
    tenantId: string,
    from: ChainPosition,
    head: ChainHead,
    em?: EntityManager,
    digest: DigestAlgorithm = 'sha256',
  ): Promise<ChainPosition | ChainProblem> {
    if (head.seq < from.seq)
      return {
        problem: `the chain head records ${head.seq} events, fewer than the ${from.seq} a checkpoint signed (newest events deleted)`,
      };
    const walk = new ChainWalk(this.keys, from, digest);
    let last: AuditEventRecord | undefined;
    for await (const e of this.read(tenantId, from.seq, head.seq, { em })) {
      await yieldIfSliceSpent();
      const problem = walk.step(e);
      if (problem) return { problem, event: e };
      last = e;
    }
    return headProblem(walk.at, head, last) ?? walk.at;
  }

  /**
   * Where a chain stands at a signed checkpoint: its event must still be there with the hash that
   * was signed. Whether that link is keyed decides whether unkeyed links may still follow.
   */
  async positionAt(cp: StoredCheckpoint): Promise<ChainPosition | ChainProblem> {
    const row = await this.events.findOne({ where: { tenantId: cp.tenantId, seq: String(cp.seq) } });
    const purgedAt = row ? null : await this.purged?.positionAt(cp);
    if (purgedAt) return purgedAt;
    if (!row)
      return {
        problem: `event seq ${cp.seq}, signed by the checkpoint of ${cp.signedAt}, is missing (deleted)`,
      };
    const e = toRecord(row);
    if (e.hash !== cp.headHash)
      return {
        problem: `${eventName(e)} is not the one the checkpoint of ${cp.signedAt} signed: re-hashed`,
        event: e,
      };
    const version = linkVersionOf(this.keys, e);
    if (version === null)
      return {
        problem: `${eventName(e)} does not verify: modified after it was written, or forged without the chain key`,
        event: e,
      };
    return { seq: e.seq, hash: e.hash, keyed: isKeyedLink(version) };
  }

  private async verifyTenant(
    signer: CheckpointSigner,
    tenantId: string,
    range: Range,
    onProgress?: VerifyProgress,
  ): Promise<TenantVerification> {
    // Checkpoints first (the database's, then the exported copies it lost), the head after them:
    // every checkpoint was committed, and so exported, before the head read next (ADR 009, 030).
    const stored = await this.checkpoints.list(tenantId);
    const exported = await this.archive.exportedBeyond(tenantId, stored);
    const all = exported.length ? [...stored, ...exported].sort((a, b) => a.seq - b.seq) : stored;
    const head = (await this.checkpoints.chainHead(tenantId)) ?? EMPTY_HEAD;
    const purged = await this.purgedStart(tenantId);
    const verdict = (checked: number, breaks: readonly ChainProblem[]): TenantVerification => ({
      tenantId,
      checkpoints: all.length,
      ...(purged && !isChainProblem(purged) ? { purgedThroughSeq: purged.seq } : {}),
      ...verdictOf(checked, breaks),
    });
    if (purged && isChainProblem(purged)) return verdict(0, [purged]);
    const forged = await this.firstForged(signer, all);
    if (forged)
      return verdict(0, [
        {
          problem: `checkpoint at seq ${forged.seq} has an invalid signature (forged or signed with another key)`,
        },
      ]);
    const partial = range.from !== undefined || range.to !== undefined;
    const scan = await this.scan(
      tenantId,
      head,
      all,
      partial ? range : undefined,
      onProgress,
      purged ?? undefined,
    );
    if (partial || scan.breaks.length >= MAX_BREAKS) return verdict(scan.checked, scan.breaks);
    const newest = all.at(-1);
    const end = await this.endProblem(
      tenantId,
      scan,
      head,
      newest && { ...newest, exported: exported.includes(newest) },
    );
    return verdict(scan.checked, end ? [...scan.breaks, end] : scan.breaks);
  }

  /** The first checkpoint whose signature does not verify (an Ed25519 check each: sliced). */
  private async firstForged(
    signer: CheckpointSigner,
    checkpoints: readonly StoredCheckpoint[],
  ): Promise<StoredCheckpoint | undefined> {
    for (const c of checkpoints) {
      await yieldIfSliceSpent();
      if (!signer.verify(c, c.signature)) return c;
    }
    return undefined;
  }

  /**
   * Walks the events up to the head (or those of a time range), each held against the checkpoint
   * signed at its seq. Lists every break (up to MAX_BREAKS), going on after each from the event
   * where it was found.
   */
  private async scan(
    tenantId: string,
    head: ChainHead,
    checkpoints: readonly StoredCheckpoint[],
    range?: Range,
    onProgress?: VerifyProgress,
    start: ChainPosition = GENESIS_POSITION,
  ): Promise<{ checked: number; reached?: ChainPosition; last?: AuditEventRecord; breaks: ChainProblem[] }> {
    const bySeq = new Map(checkpoints.map((c) => [c.seq, c]));
    let walk: ChainWalk | undefined = range ? undefined : new ChainWalk(this.keys, start);
    let last: AuditEventRecord | undefined;
    let checked = 0;
    let sinceCheckpoint: AuditEventRecord | undefined;
    const breaks: ChainProblem[] = [];
    for await (const e of this.read(tenantId, start.seq, head.seq, { range })) {
      await yieldIfSliceSpent();
      walk ??= new ChainWalk(this.keys, await this.positionBefore(e));
      const problem = walk.step(e);
      if (problem) {
        breaks.push({ problem, event: e });
        walk.resumeAt(e);
      }
      sinceCheckpoint ??= e;
      const cp = bySeq.get(e.seq);
      if (cp && cp.headHash !== e.hash)
        breaks.push({
          problem: `the chain was re-hashed: an event between ${eventName(sinceCheckpoint)} and ${eventName(e)} was changed after the checkpoint signed at ${cp.signedAt}`,
          event: sinceCheckpoint,
        });
      if (cp) sinceCheckpoint = undefined;
      last = e;
      checked++;
      if (breaks.length >= MAX_BREAKS) break;
      if (onProgress && checked % 1000 === 0) onProgress(checked);
    }
    return { checked, reached: walk?.at ?? start, last, breaks };
  }

  /**
   * Where a purged chain resumes (ADR 037): the boundary the archive vouches for, or why it is not
   * believed; null when nothing was purged.
   */
  private async purgedStart(tenantId: string): Promise<ChainPosition | ChainProblem | null> {
    const start = await this.purged?.startOf(tenantId);
    if (!start) return null;
    return isBoundaryProblem(start) ? { problem: start.problem } : start;
  }

  /** What is wrong at the end of a whole chain: events missing, a replaced newest event, extra rows. */
  private async endProblem(
    tenantId: string,
    scan: { reached?: ChainPosition; last?: AuditEventRecord },
    head: ChainHead,
    newest?: StoredCheckpoint & { exported: boolean },
  ): Promise<ChainProblem | null> {
    const reached = scan.reached ?? GENESIS_POSITION;
    if (newest && newest.seq > reached.seq)
      return {
        problem: `events after seq ${reached.seq} are missing: a checkpoint signed at ${newest.signedAt} covers ${newest.seq} events (newest events deleted${newest.exported ? '; the checkpoint is gone from the database, its exported copy remains' : ''})`,
      };
    const atHead = headProblem(reached, head, scan.last);
    if (atHead) return atHead;
    const intruder = await this.checkpoints.firstEventPastHead(tenantId);
    if (!intruder) return null;
    return {
      problem: `events after seq ${head.seq} were not written by the gateway (the chain head records ${head.seq}): inserted, first ${eventName(intruder)}`,
      event: intruder,
    };
  }

  /**
   * Where a walk over a time range starts: at the event's own link, keyed if the event before it
   * is keyed — so an unkeyed event inside the range is refused after a keyed one outside it.
   */
  private async positionBefore(e: AuditEventRecord): Promise<ChainPosition> {
    if (e.seq === 1) return GENESIS_POSITION;
    const row = await this.events.findOne({ where: { tenantId: e.tenantId, seq: String(e.seq - 1) } });
    const keyed = !!row && isKeyedLink(linkVersionOf(this.keys, toRecord(row)));
    return { seq: e.seq - 1, hash: e.prevHash, keyed };
  }

  /**
   * A tenant's events with `afterSeq < seq <= toSeq`, oldest first, read in windows of seqs (see
   * seqWindows); a time range is first narrowed to the seqs it holds.
   */
  private async *read(
    tenantId: string,
    afterSeq: number,
    toSeq: number,
    o: { em?: EntityManager; range?: Range },
  ): AsyncGenerator<AuditEventRecord> {
    const events = o.em ? o.em.getRepository(AuditEventEntity) : this.events;
    const { from, to } = o.range ?? {};
    const where: FindOptionsWhere<AuditEventEntity> = {};
    if (from && to) where.occurredAt = And(MoreThanOrEqual(from), LessThanOrEqual(to));
    else if (from) where.occurredAt = MoreThanOrEqual(from);
    else if (to) where.occurredAt = LessThanOrEqual(to);
    let [after, upTo] = [afterSeq, toSeq];
    if (where.occurredAt) {
      const bounds = await eventSeqBounds(events, tenantId, o.range!.from, o.range!.to);
      if (!bounds) return;
      [after, upTo] = [Math.max(after, bounds.min - 1), Math.min(upTo, bounds.max)];
    }
    const size = isMysql(events.manager) ? CHUNK.mysql : CHUNK.sqlite;
    for await (const rows of seqWindows(events, tenantId, after, upTo, size, where))
      for (const row of rows) yield toRecord(row);
  }

  /** The lowest and highest seq of a tenant's events in a time range, or null when it holds none. */
}

/** Whether a walk that ended at `reached` ended where the chain head says the chain ends. */
function headProblem(reached: ChainPosition, head: ChainHead, last?: AuditEventRecord): ChainProblem | null {
  if (reached.seq < head.seq)
    return {
      problem: `events after seq ${reached.seq} are missing: the chain head records ${head.seq} events (newest events deleted)`,
    };
  if (reached.hash !== head.headHash)
    return {
      problem: `the newest event (${last ? eventName(last) : `seq ${reached.seq}`}) is not the one the chain head records: replaced`,
      ...(last ? { event: last } : {}),
    };
  return null;
}

/** A tenant's verdict from the breaks found, the first of them named at the top. */
function verdictOf(
  checked: number,
  breaks: readonly ChainProblem[],
): Pick<
  TenantVerification,
  'ok' | 'checked' | 'problem' | 'firstBrokenEventId' | 'firstBrokenSeq' | 'breaks'
> {
  const [first] = breaks;
  if (!first) return { ok: true, checked };
  return {
    ok: false,
    checked,
    problem: first.problem,
    ...(first.event ? { firstBrokenEventId: first.event.id, firstBrokenSeq: first.event.seq } : {}),
    breaks: breaks.map((b) => ({
      problem: b.problem,
      ...(b.event ? { eventId: b.event.id, seq: b.event.seq } : {}),
    })),
  };
}

/** Every tenant's verdict, and the first broken one named at the top. */
function summary(tenants: readonly TenantVerification[]): Verification {
  const broken = tenants.find((t) => !t.ok);
  return {
    ok: !broken,
    checked: tenants.reduce((n, t) => n + t.checked, 0),
    ...(broken
      ? { firstBrokenEventId: broken.firstBrokenEventId, problem: `${broken.tenantId}: ${broken.problem}` }
      : {}),
    tenants,
  };
}
