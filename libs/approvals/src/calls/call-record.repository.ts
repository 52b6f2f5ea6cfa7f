import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, LessThan, type Repository } from 'typeorm';
import { ToolCallEntity, type CallStatus } from '../entities/tool-call.entity.js';

/** Call records: read them, and claim an approved one so exactly one gateway runs it. */
@Injectable()
export class CallRecordRepository {
  constructor(@InjectRepository(ToolCallEntity) private readonly calls: Repository<ToolCallEntity>) {}

  find(callId: string): Promise<ToolCallEntity | null> {
    return this.calls.findOne({ where: { callId } });
  }

  /**
   * Takes an approved call for this gateway: true for exactly one caller, whichever process
   * asks first, because only one conditional update can move it out of `queued`.
   */
  async claim(callId: string, instanceId: string): Promise<boolean> {
    const result = await this.calls.update(
      { callId, status: 'queued' },
      { status: 'running', instanceId, updatedAt: new Date() },
    );
    return (result.affected ?? 0) > 0;
  }

  /** Approved calls no gateway has started after `olderThan` (their approver's gateway went away). */
  queuedBefore(olderThan: Date, limit = 20): Promise<ToolCallEntity[]> {
    return this.calls.find({ where: { status: 'queued', updatedAt: LessThan(olderThan) }, take: limit });
  }

  async setStatus(
    callId: string,
    from: CallStatus[],
    to: CallStatus,
    envelope: Record<string, any> | null,
  ): Promise<boolean> {
    const result = await this.calls.update(
      { callId, status: In(from) },
      { status: to, envelope, updatedAt: new Date() },
    );
    return (result.affected ?? 0) > 0;
  }
}
