import { Redis } from 'ioredis';
import type { CallRef } from '@toolgate/calls';
import type { ApprovalDecision } from '../approvals/approval-decisions.js';

/** How long a gateway's liveness key lives without a renewal: past it, its held calls are taken over. */
export const WAKEUP_LEASE_MS = 120;
/** How often a gateway renews its liveness key and looks for dead holders (one script call). */
export const WAKEUP_TICK_MS = 25;
/** A Redis command that takes longer is given up on: wake-ups are best effort, polling is the floor. */
const COMMAND_TIMEOUT_MS = 250;
/** Ids in a message or a held entry longer than this are not ours: ignored. */
const MAX_ID_LENGTH = 200;

/**
 * One atomic pass (Redis runs scripts one at a time): renew this gateway's liveness key, then take
 * the held calls of every holder whose key has run out, removing them so exactly one gateway gets
 * each. With `takeOwn` (first pass after a start) the calls this instance id held before a restart
 * are taken too. Keys are built inside the script from the prefix: a standalone Redis is assumed.
 */
const SWEEP_SCRIPT = `
local p, me, lease, takeOwn = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
redis.call('SET', p .. ':alive:' .. me, '1', 'PX', lease)
local out = {}
for _, id in ipairs(redis.call('SMEMBERS', p .. ':holders')) do
  if (id == me and takeOwn == '1') or (id ~= me and redis.call('EXISTS', p .. ':alive:' .. id) == 0) then
    for _, ref in ipairs(redis.call('SMEMBERS', p .. ':holding:' .. id)) do out[#out + 1] = ref end
    redis.call('DEL', p .. ':holding:' .. id)
    if id ~= me then redis.call('SREM', p .. ':holders', id) end
  end
end
return out
`;

/** What the bridge hears from the other gateways. */
export interface WakeupHandlers {
  /** A decision announced by another gateway: ids only, to be checked against the database. */
  decided(decision: ApprovalDecision): void;
  /** Approved calls whose holder died before running them: claim and run them (the claim fences). */
  orphaned(refs: CallRef[]): void;
  /** Redis failed (or came back): for a log line, never for the caller. */
  trouble(err: Error | null): void;
}

const isId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_ID_LENGTH;

/** The ids of a message, or null when it is not one (garbage, an old format, too long). */
export function parseDecisionMessage(raw: string): (ApprovalDecision & { from: string }) | null {
  try {
    const m = JSON.parse(raw) as Record<string, unknown> | null;
    if (!m || typeof m !== 'object') return null;
    const { tenantId, approvalId, callId, from } = m;
    return isId(tenantId) && isId(approvalId) && isId(callId) && isId(from)
      ? { tenantId, approvalId, callId, from }
      : null;
  } catch {
    return null;
  }
}

/** A held entry back into a call ref, or null. */
export function parseHeldRef(raw: string): CallRef | null {
  try {
    const v = JSON.parse(raw) as unknown;
    return Array.isArray(v) && v.length === 2 && isId(v[0]) && isId(v[1])
      ? { tenantId: v[0], callId: v[1] }
      : null;
  } catch {
    return null;
  }
}

const heldEntry = (ref: CallRef) => JSON.stringify([ref.tenantId, ref.callId]);

/**
 * Approval wake-ups between gateways through Redis, under `<prefix>:approvals:`:
 *
 * - `decided` (pub/sub channel): every decision, as ids only; receivers re-read the database.
 * - `alive:<instance>` (key, PX lease): renewed every tick while the gateway lives.
 * - `holding:<instance>` (set) and `holders` (set): approved calls a gateway is about to run, from
 *   before its decision commits until its claim; when its `alive` key runs out, the first gateway
 *   to notice takes the set (atomically, so one gateway gets each call) and claims the calls.
 *
 * Everything here is a nudge and fails soft: no message, a lost one or Redis down leaves the
 * database polling of the scheduler and of every waiter to do the same, later.
 */
export class RedisWakeups {
  private readonly commands: Redis;
  private readonly subscriber: Redis;
  private readonly channel: string;
  private timer?: NodeJS.Timeout;
  private ticking = false;
  private firstPass = true;
  private failing = false;
  private subscribed: Promise<void> = Promise.resolve();

  constructor(
    url: string,
    private readonly prefix: string,
    private readonly instanceId: string,
    private readonly handlers: WakeupHandlers,
  ) {
    const options = { maxRetriesPerRequest: 1, commandTimeout: COMMAND_TIMEOUT_MS };
    // Commands fail at once while disconnected rather than queueing behind a dead Redis.
    this.commands = new Redis(url, { ...options, enableOfflineQueue: false });
    this.subscriber = new Redis(url, { maxRetriesPerRequest: null });
    this.commands.on('error', (err: Error) => this.failed(err));
    this.subscriber.on('error', (err: Error) => this.failed(err));
    this.commands.defineCommand('approvalsSweep', { numberOfKeys: 0, lua: SWEEP_SCRIPT });
    this.channel = `${prefix}:approvals:decided`;
  }

  private key(name: string): string {
    return `${this.prefix}:approvals:${name}`;
  }

  /** Subscribes and starts the liveness ticks. */
  start(): void {
    this.subscriber.on('message', (channel: string, raw: string) => {
      if (channel !== this.channel) return;
      const m = parseDecisionMessage(raw);
      if (!m || m.from === this.instanceId) return;
      this.handlers.decided({ tenantId: m.tenantId, approvalId: m.approvalId, callId: m.callId });
    });
    this.subscribed = this.subscriber.subscribe(this.channel).then(
      () => undefined,
      (err: Error) => this.failed(err),
    );
    this.timer = setInterval(() => void this.tick(), WAKEUP_TICK_MS);
    this.timer.unref();
  }

  /** Resolves once subscribed and connected (for tests: a gateway does not wait for Redis). */
  async ready(): Promise<void> {
    await this.subscribed;
    if (this.commands.status !== 'ready')
      await new Promise<void>((resolve) => this.commands.once('ready', () => resolve()));
  }

  private async tick(): Promise<void> {
    // Not connected (yet, or any more): nothing to renew; the error handler has told of it.
    if (this.ticking || this.commands.status !== 'ready') return;
    this.ticking = true;
    try {
      const sweep = (this.commands as unknown as SweepCommand).approvalsSweep;
      const taken = await sweep.call(
        this.commands,
        this.prefix + ':approvals',
        this.instanceId,
        String(WAKEUP_LEASE_MS),
        this.firstPass ? '1' : '0',
      );
      this.firstPass = false;
      this.recovered();
      const refs = taken.map(parseHeldRef).filter((r): r is CallRef => r !== null);
      if (refs.length) this.handlers.orphaned(refs);
    } catch (err) {
      this.failed(err as Error);
    } finally {
      this.ticking = false;
    }
  }

  /**
   * Marks an approved call as this gateway's to run, before its decision commits; call `release`
   * once it is claimed. Never rejects: a failure only means no fast take-over for this call.
   */
  async hold(ref: CallRef): Promise<void> {
    // Leftovers of a previous run under this instance id are taken on the first pass only if no
    // call of this run is held yet: that pass must never take this run's own calls.
    this.firstPass = false;
    try {
      await this.commands
        .multi()
        .sadd(this.key(`holding:${this.instanceId}`), heldEntry(ref))
        .sadd(this.key('holders'), this.instanceId)
        .exec();
    } catch (err) {
      this.failed(err as Error);
    }
  }

  /** The call is claimed (or was never approved): nobody needs to take it over. */
  async release(ref: CallRef): Promise<void> {
    try {
      await this.commands.srem(this.key(`holding:${this.instanceId}`), heldEntry(ref));
    } catch (err) {
      this.failed(err as Error);
    }
  }

  /** Tells every other gateway of a decision (ids only). */
  async announce(decision: ApprovalDecision): Promise<void> {
    const message = JSON.stringify({
      tenantId: decision.tenantId,
      approvalId: decision.approvalId,
      callId: decision.callId,
      from: this.instanceId,
    });
    try {
      await this.commands.publish(this.channel, message);
    } catch (err) {
      this.failed(err as Error);
    }
  }

  /** Stops the ticks and gives the liveness key up (a clean stop is not a death). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    try {
      if (this.commands.status === 'ready') await this.commands.del(this.key(`alive:${this.instanceId}`));
    } catch {
      // closing anyway
    }
    this.commands.disconnect();
    this.subscriber.disconnect();
  }

  private failed(err: Error): void {
    if (this.failing) return;
    this.failing = true;
    this.handlers.trouble(err);
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.handlers.trouble(null);
  }
}

/** The script command `defineCommand` adds to the client. */
interface SweepCommand {
  approvalsSweep(prefix: string, instanceId: string, leaseMs: string, takeOwn: string): Promise<string[]>;
}
