import { Inject, Injectable } from '@nestjs/common';
import { InstanceRegistry } from '@toolgate/database';
import { canonicalJson, ErrorCode, sha256Hex, ToolgateError, uuidv7, type Envelope } from '@toolgate/toolkit';
import { CALLS_OPTIONS, type CallsOptions } from '../calls.options.js';
import { CALL_RESULT_REDACTION, type CallResultRedaction } from '../records/call-reader.js';
import { CallRecords } from '../records/call-records.js';
import { IdempotencyRecordEntity } from '../entities/idempotency-record.entity.js';
import { IdempotencyRepository } from './idempotency.repository.js';

/** An answer to an invoke, as stored for replays. */
export interface IdempotentAnswer {
  readonly status: number;
  readonly callId: string;
  readonly envelope: Envelope;
  /** True when this answer is a replay of an earlier request with the same key. */
  readonly replayed?: boolean;
  /** A replay of a parked call not decided yet (its approval pending, or approved and running). */
  readonly pending?: boolean;
}

const MAX_KEY_LENGTH = 200;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The digest a key is bound to: who asks, which tool, and the input as sent. The principal is part
 * of it so that another key of the tenant reusing a key gets a conflict, never someone else's result.
 */
export function requestDigest(principalId: string, agentType: string, tool: string, input: unknown): string {
  return sha256Hex(canonicalJson({ principalId, agentType, tool, input: input ?? {} }));
}

/**
 * `Idempotency-Key` per tenant. The same key and input answer the first result without running the
 * tool again; other input is a 409. Concurrent requests with one key — on any gateway — run the
 * tool once and all get its answer. A call whose gateway died is re-run under a new call id but
 * the same identity, so `ctx.idempotencyKey` (and the upstream) see the same key.
 */
@Injectable()
export class IdempotencyService {
  constructor(
    private readonly records: IdempotencyRepository,
    private readonly calls: CallRecords,
    private readonly instances: InstanceRegistry,
    @Inject(CALLS_OPTIONS) private readonly options: CallsOptions,
    @Inject(CALL_RESULT_REDACTION) private readonly redaction: CallResultRedaction,
  ) {}

  /** `tool`: the tool called, whose marked output fields decide how a replayed answer is stored. */
  async run(
    request: { tenantId: string; key: string; digest: string; tool?: string },
    execute: (callId: string, identity: string) => Promise<IdempotentAnswer>,
  ): Promise<IdempotentAnswer> {
    if (!request.key || request.key.length > MAX_KEY_LENGTH || /[^\x21-\x7e]/.test(request.key)) {
      throw new ToolgateError(ErrorCode.INVALID_INPUT, {
        params: { summary: `Idempotency-Key must be 1–${MAX_KEY_LENGTH} visible ASCII characters` },
      });
    }
    return this.once(request, execute, 'every');
  }

  /**
   * Identical calls — same key, agent type, tool and input (`digest`, see `requestDigest`) — share
   * one parked call while it waits for a person: a call that would park again answers the one
   * already waiting (its call id and approval id) instead of asking a second time. For faces whose
   * clients retry without an Idempotency-Key (MCP: an agent host retries a failed tool call).
   * Only parked calls are shared: a call that ran frees its record at once, so the next identical
   * call runs again, and once the parked call is decided the next identical call asks anew. The
   * record's key holds a space, which no client's Idempotency-Key can, so the two never meet.
   */
  coalesceParked(
    request: { tenantId: string; digest: string },
    execute: (callId: string, identity: string) => Promise<IdempotentAnswer>,
  ): Promise<IdempotentAnswer> {
    return this.once({ ...request, key: `parked ${request.digest}` }, execute, 'parked');
  }

  /** The loop of `run` and `coalesceParked`: `keep` says which answers later requests share. */
  private async once(
    request: { tenantId: string; key: string; digest: string; tool?: string },
    execute: (callId: string, identity: string) => Promise<IdempotentAnswer>,
    keep: 'every' | 'parked',
  ): Promise<IdempotentAnswer> {
    const deadline = Date.now() + this.options.idempotencyWaitMs;
    while (Date.now() < deadline) {
      const callId = uuidv7();
      const now = new Date();
      const fresh = Object.assign(new IdempotencyRecordEntity(), {
        tenantId: request.tenantId,
        key: request.key,
        inputDigest: request.digest,
        callId,
        identity: callId,
        status: 'in_progress' as const,
        httpStatus: null,
        envelope: null,
        ownerInstance: this.instances.instanceId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + this.options.idempotencyTtlMs),
      });
      if (await this.records.tryInsert(fresh)) return this.execute(fresh, execute, keep, request.tool);

      const existing = await this.records.find(request.tenantId, request.key);
      if (!existing) continue;
      if (existing.expiresAt.getTime() <= Date.now()) {
        await this.records.deleteIf(request.tenantId, request.key, existing.callId);
        continue;
      }
      if (existing.inputDigest !== request.digest) {
        throw new ToolgateError(ErrorCode.IDEMPOTENCY_CONFLICT, { details: { callId: existing.callId } });
      }
      const answer = await this.answerFor(existing);
      if (answer && keep === 'parked' && !answer.pending) {
        // The shared call was decided: this one asks anew.
        await this.records.deleteIf(request.tenantId, request.key, existing.callId);
        continue;
      }
      if (answer) return answer;
      if (await this.orphaned(existing)) {
        const retryId = uuidv7();
        if (
          await this.records.takeOver(
            request.tenantId,
            request.key,
            existing.callId,
            retryId,
            this.instances.instanceId,
          )
        ) {
          return this.execute({ ...existing, callId: retryId }, execute, keep, request.tool);
        }
        continue;
      }
      await sleep(this.options.idempotencyPollMs);
    }
    const current = await this.records.find(request.tenantId, request.key);
    throw new ToolgateError(ErrorCode.IDEMPOTENCY_IN_PROGRESS, {
      params: { callId: current?.callId ?? '' },
      details: { callId: current?.callId },
    });
  }

  private async execute(
    record: IdempotencyRecordEntity,
    execute: (callId: string, identity: string) => Promise<IdempotentAnswer>,
    keep: 'every' | 'parked',
    tool: string | undefined,
  ): Promise<IdempotentAnswer> {
    let answer: IdempotentAnswer;
    try {
      answer = await execute(record.callId, record.identity);
    } catch (err) {
      // Nothing ran (unknown tool, refused key...): free the key for a corrected request.
      await this.records.deleteIf(record.tenantId, record.key, record.callId);
      throw err;
    }
    const parked = (answer.envelope as { code?: string }).code === ErrorCode.APPROVAL_PENDING;
    if (!parked && keep === 'parked') {
      await this.records.deleteIf(record.tenantId, record.key, record.callId);
      return answer;
    }
    // A replay answers what is stored: the redacted envelope, never the raw one (ADR 036). The
    // first request got the answer itself.
    const stored = await this.redaction.storedEnvelope(record.tenantId, tool, answer.envelope);
    await this.records.finish(
      record.tenantId,
      record.key,
      record.callId,
      parked ? 'parked' : 'done',
      answer.status,
      stored as Record<string, any>,
    );
    return answer;
  }

  /** The stored answer, or the parked call's answer as it stands now; undefined while in progress. */
  private async answerFor(r: IdempotencyRecordEntity): Promise<IdempotentAnswer | undefined> {
    if (r.status === 'done')
      return {
        status: r.httpStatus ?? 200,
        callId: r.callId,
        envelope: r.envelope as Envelope,
        replayed: true,
      };
    if (r.status !== 'parked') return undefined;
    const call = await this.calls.find({ tenantId: r.tenantId, callId: r.callId });
    if (!call || ['pending_approval', 'queued', 'running'].includes(call.status)) {
      return {
        status: r.httpStatus ?? 202,
        callId: r.callId,
        envelope: r.envelope as Envelope,
        replayed: true,
        pending: true,
      };
    }
    if (call.status === 'interrupted') return undefined;
    return { status: 200, callId: r.callId, envelope: call.envelope as Envelope, replayed: true };
  }

  /** A request in progress whose call was interrupted, or whose gateway is gone. */
  private async orphaned(r: IdempotencyRecordEntity): Promise<boolean> {
    const call = await this.calls.find({ tenantId: r.tenantId, callId: r.callId });
    if (call?.status === 'interrupted') return true;
    if (r.status === 'parked') return false;
    return !(await this.instances.isAlive(r.ownerInstance));
  }
}
