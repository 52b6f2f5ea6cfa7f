import type { InstanceRegistry } from '@toolgate/database';
import type { CallResultRedaction } from '../records/call-reader.js';
import { ErrorCode, ok } from '@toolgate/toolkit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CALLS_OPTIONS } from '../calls.options.js';
import { IdempotencyRecordEntity } from '../entities/idempotency-record.entity.js';
import { callsDatabase, type CallsDatabase } from '../testing/calls-database.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencyService, requestDigest, type IdempotentAnswer } from './idempotency.service.js';

/** The port the audit lib fills (ADR 036); here answers are stored as given (the e2e suite covers redaction). */
const STORED_AS_IS: CallResultRedaction = {
  redactorFor: async () => ({ redact: (v: unknown) => v }),
  storedEnvelope: async (_tenantId: string, _tool: string | undefined, envelope: unknown) => envelope,
};

const NOW = Date.UTC(2026, 0, 1, 9);
const TTL_MS = 24 * 3_600_000;

describe('requestDigest', () => {
  it('binds a key to the principal, agent type, tool and input, whatever the key order of the input', () => {
    const digest = requestDigest('key_a', 'ops', 'restart_service', { service: 'x', reason: 'y' });
    expect(requestDigest('key_a', 'ops', 'restart_service', { reason: 'y', service: 'x' })).toBe(digest);
    expect(requestDigest('key_b', 'ops', 'restart_service', { service: 'x', reason: 'y' })).not.toBe(digest);
    expect(requestDigest('key_a', 'sales', 'restart_service', { service: 'x', reason: 'y' })).not.toBe(
      digest,
    );
    expect(requestDigest('key_a', 'ops', 'read_logs', { service: 'x', reason: 'y' })).not.toBe(digest);
    expect(requestDigest('key_a', 'ops', 'restart_service', { service: 'z', reason: 'y' })).not.toBe(digest);
  });

  it('takes a missing input for an empty one', () => {
    expect(requestDigest('key_a', 'ops', 'read_logs', undefined)).toBe(
      requestDigest('key_a', 'ops', 'read_logs', {}),
    );
  });
});

describe('IdempotencyService', () => {
  let db: CallsDatabase;
  let service: IdempotencyService;
  /** Gateways whose heartbeat is fresh, besides this one. */
  let alive: Set<string>;
  /** The (callId, identity) of every run of the tool. */
  let runs: [string, string][];

  const execute = async (callId: string, identity: string): Promise<IdempotentAnswer> => {
    runs.push([callId, identity]);
    return { status: 200, callId, envelope: ok({ run: runs.length }) };
  };
  const request = (key: string, digest = 'digest-1', tenantId = 'acme') => ({ tenantId, key, digest });

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    db = await callsDatabase();
    alive = new Set();
    runs = [];
    const instances = { instanceId: 'gw-1', isAlive: async (id: string) => id === 'gw-1' || alive.has(id) };
    service = new IdempotencyService(
      new IdempotencyRepository(db.dataSource.getRepository(IdempotencyRecordEntity)),
      db.calls,
      instances as unknown as InstanceRegistry,
      { ...DEFAULT_CALLS_OPTIONS, idempotencyTtlMs: TTL_MS },
      STORED_AS_IS,
    );
  });
  afterEach(async () => {
    await db.close();
    vi.useRealTimers();
  });

  it('refuses keys that are empty, longer than 200 characters or not visible ASCII, before running anything', async () => {
    for (const key of ['', 'k'.repeat(201), 'has space', 'ключ', 'tab\t'])
      await expect(service.run(request(key), execute)).rejects.toMatchObject({
        code: ErrorCode.INVALID_INPUT,
      });
    expect(runs).toEqual([]);
    await expect(service.run(request('k'.repeat(200)), execute)).resolves.toMatchObject({ status: 200 });
  });

  it('runs a key once and replays its first answer to the same request', async () => {
    const first = await service.run(request('order-1'), execute);
    const again = await service.run(request('order-1'), execute);
    expect(runs).toHaveLength(1);
    expect(again).toEqual({ ...first, replayed: true });
  });

  it('answers IDEMPOTENCY_CONFLICT to a reused key with another request, naming the first call', async () => {
    const first = await service.run(request('order-1'), execute);
    await expect(service.run(request('order-1', 'digest-2'), execute)).rejects.toMatchObject({
      code: ErrorCode.IDEMPOTENCY_CONFLICT,
      details: { callId: first.callId },
    });
    expect(runs).toHaveLength(1);
  });

  it('keeps keys per tenant', async () => {
    await service.run(request('order-1', 'digest-1', 'acme'), execute);
    await expect(service.run(request('order-1', 'digest-2', 'globex'), execute)).resolves.not.toHaveProperty(
      'replayed',
    );
    expect(runs).toHaveLength(2);
  });

  it('frees the key when the request fails before anything ran', async () => {
    await expect(
      service.run(request('order-1'), async () => {
        throw new Error('unknown tool');
      }),
    ).rejects.toThrow('unknown tool');
    await expect(service.run(request('order-1', 'digest-2'), execute)).resolves.toMatchObject({
      status: 200,
    });
  });

  it('forgets a key after its time to live, and runs it again', async () => {
    const first = await service.run(request('order-1'), execute);
    vi.setSystemTime(NOW + TTL_MS);
    const later = await service.run(request('order-1', 'digest-2'), execute);
    expect(later.callId).not.toBe(first.callId);
    expect(runs).toHaveLength(2);
  });

  it('re-runs a request whose gateway died under a new call id but the same identity', async () => {
    await db.dataSource.getRepository(IdempotencyRecordEntity).insert({
      tenantId: 'acme',
      key: 'order-1',
      inputDigest: 'digest-1',
      callId: 'call-first',
      identity: 'call-first',
      status: 'in_progress',
      httpStatus: null,
      envelope: null,
      ownerInstance: 'gw-dead',
      createdAt: new Date(),
      expiresAt: new Date(NOW + TTL_MS),
    });
    const answer = await service.run(request('order-1'), execute);
    expect(runs).toEqual([[answer.callId, 'call-first']]);
    expect(answer.callId).not.toBe('call-first');
    expect(await service.run(request('order-1'), execute)).toMatchObject({
      callId: answer.callId,
      replayed: true,
    });
  });

  describe('coalesceParked (MCP retries without a key)', () => {
    const parking = async (callId: string, identity: string): Promise<IdempotentAnswer> => {
      runs.push([callId, identity]);
      return {
        status: 202,
        callId,
        envelope: { error: 'parked', code: ErrorCode.APPROVAL_PENDING, suggestedAction: 'wait', callId },
      };
    };
    const digest = { tenantId: 'acme', digest: 'digest-9' };

    it('answers the parked call to an identical call while it waits, and lets a decided one ask anew', async () => {
      const callStatus = vi.spyOn(db.calls, 'find');
      const first = await service.coalesceParked(digest, parking);
      callStatus.mockResolvedValue({ status: 'pending_approval' } as never);
      const again = await service.coalesceParked(digest, parking);
      expect(runs).toHaveLength(1);
      expect(again).toMatchObject({ callId: first.callId, replayed: true, pending: true });
      callStatus.mockResolvedValue({ status: 'succeeded', envelope: ok({}) } as never);
      const anew = await service.coalesceParked(digest, parking);
      expect(runs).toHaveLength(2);
      expect(anew.callId).not.toBe(first.callId);
    });

    it('shares nothing a call answered without parking', async () => {
      await service.coalesceParked(digest, execute);
      await service.coalesceParked(digest, execute);
      expect(runs).toHaveLength(2);
    });

    it('keeps its records apart from client keys (a client key cannot hold a space)', async () => {
      await expect(service.run(request('parked digest-9'), execute)).rejects.toMatchObject({
        code: ErrorCode.INVALID_INPUT,
      });
    });
  });
});
