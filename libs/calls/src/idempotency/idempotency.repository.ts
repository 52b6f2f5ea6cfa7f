import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { insertUnlessTaken } from '@toolgate/database';
import type { Repository } from 'typeorm';
import { IdempotencyRecordEntity } from '../entities/idempotency-record.entity.js';

/** Idempotency records, under the (tenant, key) primary key that makes the first request win. */
@Injectable()
export class IdempotencyRepository {
  constructor(
    @InjectRepository(IdempotencyRecordEntity) private readonly records: Repository<IdempotencyRecordEntity>,
  ) {}

  /** Inserts the record; false when the key is taken (on Galera too: insertUnlessTaken). */
  tryInsert(record: IdempotencyRecordEntity): Promise<boolean> {
    return insertUnlessTaken(() => this.records.insert(record));
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
