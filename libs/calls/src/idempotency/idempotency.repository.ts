import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { isDeadlock, isUniqueViolation } from '@toolgate/database';
import type { Repository } from 'typeorm';
import { IdempotencyRecordEntity } from '../entities/idempotency-record.entity.js';

/** Tries of an insert that lost to a concurrent one as a deadlock. */
const INSERT_ATTEMPTS = 5;

/** Idempotency records, under the (tenant, key) primary key that makes the first request win. */
@Injectable()
export class IdempotencyRepository {
  constructor(
    @InjectRepository(IdempotencyRecordEntity) private readonly records: Repository<IdempotencyRecordEntity>,
  ) {}

  /**
   * Inserts the record; false when the key is taken. Two inserts of one key on two Galera nodes
   * meet at certification, and the loser is rolled back as a deadlock, not a duplicate (ADR 042):
   * it is tried again, and then sees the winner's row as a duplicate (or, if the winner was rolled
   * back too, wins).
   */
  async tryInsert(record: IdempotencyRecordEntity): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.records.insert(record);
        return true;
      } catch (err) {
        if (isUniqueViolation(err)) return false;
        if (!isDeadlock(err) || attempt === INSERT_ATTEMPTS) throw err;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
      }
    }
  }

  find(tenantId: string, key: string): Promise<IdempotencyRecordEntity | null> {
    return this.records.findOne({ where: { tenantId, key } });
  }

  /** Stores the answer of the call now standing for the key. */
  async finish(
    tenantId: string,
    key: string,
    callId: string,
    status: 'done' | 'parked',
    httpStatus: number,
    envelope: Record<string, any>,
  ): Promise<void> {
    await this.records.update({ tenantId, key, callId }, { status, httpStatus, envelope });
  }

  /** Moves the key to a new call, if it still stands for `fromCallId`; true for the one winner. */
  async takeOver(
    tenantId: string,
    key: string,
    fromCallId: string,
    toCallId: string,
    owner: string,
  ): Promise<boolean> {
    const result = await this.records.update(
      { tenantId, key, callId: fromCallId },
      { callId: toCallId, ownerInstance: owner, status: 'in_progress', httpStatus: null, envelope: null },
    );
    return (result.affected ?? 0) > 0;
  }

  async deleteIf(tenantId: string, key: string, callId: string): Promise<void> {
    await this.records.delete({ tenantId, key, callId });
  }
}
