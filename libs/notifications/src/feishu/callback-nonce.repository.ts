import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { insertUnlessTaken } from '@toolgate/database';
import { DataSource, LessThan } from 'typeorm';
import { CallbackNonceEntity } from './callback-nonce.entity.js';

/** Feishu callbacks seen, per tenant: shared by every gateway, so a replay is refused anywhere. */
@Injectable()
export class CallbackNonceRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Records a nonce; false when this tenant has seen it before (a replay). */
  firstSight(tenantId: string, nonce: string, now: Date): Promise<boolean> {
    return insertUnlessTaken(() =>
      this.dataSource.getRepository(CallbackNonceEntity).insert({ tenantId, nonce, seenAt: now }),
    );
  }

  /** Forgets nonces older than `before`: the timestamp window refuses their callbacks anyway. */
  async forgetBefore(before: Date): Promise<void> {
    await this.dataSource.getRepository(CallbackNonceEntity).delete({ seenAt: LessThan(before) });
  }
}
