import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import {
  And,
  LessThanOrEqual,
  MoreThan,
  MoreThanOrEqual,
  type FindOptionsWhere,
  type Repository,
} from 'typeorm';
import { GENESIS_HASH, type AuditEventRecord } from '../audit-event.js';
import { AuditEventEntity } from '../entities/audit-event.entity.js';
import { CheckpointRepository, type StoredCheckpoint } from './checkpoint.repository.js';
import type { CheckpointSigner } from './checkpoint-signer.js';
import { eventHash } from './event-hash.js';
import { toRecord } from './event-mapping.js';

const CHUNK = 2_000;

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
}

/** The verdict on every tenant asked for. */
export interface Verification {
  readonly ok: boolean;
  readonly checked: number;
  readonly firstBrokenEventId?: string;
  readonly problem?: string;
  readonly tenants: readonly TenantVerification[];
}

/**
 * Recomputes chains and holds them against the signed checkpoints. The chain alone catches edits,
 * inserts and deletions in the middle; checkpoints catch the two attacks a chain misses: deleting
 * the newest events, and editing an event then re-hashing everything after it.
 */
@Injectable()
export class ChainVerifier {
  constructor(
    @InjectRepository(AuditEventEntity) private readonly events: Repository<AuditEventEntity>,
    private readonly checkpoints: CheckpointRepository,
  ) {}

  async verify(
    signer: CheckpointSigner,
    tenantIds: readonly string[],
    range: { from?: Date; to?: Date } = {},
  ): Promise<Verification> {
    const tenants: TenantVerification[] = [];
    for (const tenantId of tenantIds) tenants.push(await this.verifyTenant(signer, tenantId, range));
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

  private async verifyTenant(
    signer: CheckpointSigner,
    tenantId: string,
    range: { from?: Date; to?: Date },
  ): Promise<TenantVerification> {
    const all = await this.checkpoints.list(tenantId);
    const forged = all.find((c) => !signer.verify(c, c.signature));
    if (forged) {
      return {
        tenantId,
        ok: false,
        checked: 0,
        checkpoints: all.length,
        problem: `checkpoint at seq ${forged.seq} has an invalid signature (forged or signed with another key)`,
      };
    }
    const bySeq = new Map<number, StoredCheckpoint>(all.map((c) => [c.seq, c]));
    const partial = range.from !== undefined || range.to !== undefined;
    const fail = (checked: number, problem: string, event?: { id: string; seq: number }) => ({
      tenantId,
      ok: false,
      checked,
      checkpoints: all.length,
      problem,
      ...(event ? { firstBrokenEventId: event.id, firstBrokenSeq: event.seq } : {}),
    });

    let prev: AuditEventRecord | undefined;
    let lastGood: { seq: number; afterId?: string } = { seq: 0 };
    let checked = 0;
    let pendingAfterCheckpoint: { id: string; seq: number } | undefined;
    for (let cursor = 0; ;) {
      const where: FindOptionsWhere<AuditEventEntity> = { tenantId, seq: MoreThan(String(cursor)) };
      if (range.from && range.to)
        where.occurredAt = And(MoreThanOrEqual(range.from), LessThanOrEqual(range.to));
      else if (range.from) where.occurredAt = MoreThanOrEqual(range.from);
      else if (range.to) where.occurredAt = LessThanOrEqual(range.to);
      const rows = await this.events.find({ where, order: { seq: 'ASC' }, take: CHUNK });
      if (!rows.length) break;
      for (const row of rows) {
        const e = toRecord(row);
        const expectedSeq = prev ? prev.seq + 1 : partial ? e.seq : 1;
        if (e.seq !== expectedSeq)
          return fail(
            checked,
            `event seq ${expectedSeq}${e.seq > expectedSeq + 1 ? `–${e.seq - 1}` : ''} is missing (deleted)`,
            e,
          );
        const expectedPrev = prev ? prev.hash : partial ? e.prevHash : GENESIS_HASH;
        if (e.prevHash !== expectedPrev)
          return fail(
            checked,
            `event seq ${e.seq} does not link to the event before it (inserted or reordered)`,
            e,
          );
        if (eventHash(e.prevHash, e, e.seq) !== e.hash)
          return fail(checked, `event seq ${e.seq} was modified after it was written`, e);
        if (!pendingAfterCheckpoint) pendingAfterCheckpoint = { id: e.id, seq: e.seq };
        const cp = bySeq.get(e.seq);
        if (cp && cp.headHash !== e.hash) {
          const first = pendingAfterCheckpoint;
          return fail(
            checked,
            `the chain was re-hashed: an event between seq ${lastGood.seq + 1} and ${e.seq} was changed after the checkpoint signed at ${cp.signedAt}`,
            first,
          );
        }
        if (cp) {
          lastGood = { seq: e.seq };
          pendingAfterCheckpoint = undefined;
        }
        prev = e;
        checked++;
      }
      cursor = Number(rows.at(-1)!.seq);
    }
    const newest = all.at(-1);
    const lastSeq = prev?.seq ?? 0;
    if (!partial && newest && newest.seq > lastSeq) {
      return fail(
        checked,
        `events after seq ${lastSeq} are missing: a checkpoint signed at ${newest.signedAt} covers ${newest.seq} events (newest events deleted)`,
      );
    }
    const head = await this.checkpoints.chainHead(tenantId);
    if (!partial && head && head.seq < lastSeq) {
      const first = await this.events.findOne({ where: { tenantId, seq: String(head.seq + 1) } });
      return fail(
        checked,
        `events after seq ${head.seq} were not written by the gateway (the chain head records ${head.seq}): inserted`,
        first ? { id: String(first.id), seq: head.seq + 1 } : undefined,
      );
    }
    if (!partial && head && prev && head.seq === lastSeq && head.headHash !== prev.hash) {
      return fail(
        checked,
        `the newest event (seq ${lastSeq}) is not the one the chain head records: replaced`,
        prev,
      );
    }
    if (!partial && head && head.seq > lastSeq) {
      return fail(
        checked,
        `events after seq ${lastSeq} are missing: the chain head records ${head.seq} events (newest events deleted)`,
      );
    }
    return { tenantId, ok: true, checked, checkpoints: all.length };
  }
}
