import type { InstanceRegistry } from '@toolgate/database';
import type { CallResultRedaction } from '../records/call-reader.js';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CALLS_OPTIONS, type CallsOptions } from '../calls.options.js';
import type { CallRecords } from '../records/call-records.js';
import { IdempotencyRecordEntity } from '../entities/idempotency-record.entity.js';
import type { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencyService } from './idempotency.service.js';

/** The port the audit lib fills (ADR 036); here answers are stored as given (the e2e suite covers redaction). */
const STORED_AS_IS: CallResultRedaction = {
  redactorFor: async () => ({ redact: (v: unknown) => v }),
  storedEnvelope: async (_tenantId: string, _tool: string | undefined, envelope: unknown) => envelope,
};

/** A key held by a live request on another gateway, for as long as the test runs. */
function heldKey() {
  const record = Object.assign(new IdempotencyRecordEntity(), {
    tenantId: 'acme',
    key: 'k-1',
    inputDigest: 'digest',
    callId: 'call-1',
    identity: 'call-1',
    status: 'in_progress' as const,
    ownerInstance: 'other-gateway',
    expiresAt: new Date(Date.now() + 60 * 60_000),
  });
  const records = { tryInsert: vi.fn(async () => false), find: vi.fn(async () => record) };
  const calls = { find: vi.fn(async () => null) };
  const instances = { instanceId: 'this-gateway', isAlive: vi.fn(async () => true) };
  return { records, calls, instances };
}

function service(fakes: ReturnType<typeof heldKey>, options: CallsOptions): IdempotencyService {
  return new IdempotencyService(
    fakes.records as unknown as IdempotencyRepository,
    fakes.calls as unknown as CallRecords,
    fakes.instances as unknown as InstanceRegistry,
    options,
    STORED_AS_IS,
  );
}

describe('IdempotencyService: waiting for another request with the same key', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('looks every idempotencyPollMs and gives up after idempotencyWaitMs with IDEMPOTENCY_IN_PROGRESS', async () => {
    const fakes = heldKey();
    const options = { ...DEFAULT_CALLS_OPTIONS, idempotencyWaitMs: 1_000, idempotencyPollMs: 100 };
    const answer = service(fakes, options)
      .run({ tenantId: 'acme', key: 'k-1', digest: 'digest' }, () => Promise.reject(new Error('never runs')))
      .catch((err: unknown) => err);

    await vi.advanceTimersByTimeAsync(1_000);
    const err = await answer;
    expect(err).toBeInstanceOf(ToolgateError);
    expect((err as ToolgateError).code).toBe(ErrorCode.IDEMPOTENCY_IN_PROGRESS);
    // One look (an INSERT attempt) right away and one per poll until the wait is over.
    expect(fakes.records.tryInsert).toHaveBeenCalledTimes(1_000 / 100);
  });
});
