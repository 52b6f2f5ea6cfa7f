import { ROLES } from '@toolgate/contract';
import fc from 'fast-check';
import type { Finding } from './fuzz-findings.js';

/** The roles a fuzzed request may authenticate as: every role of the contract. */
export const FUZZ_ROLES = ROLES;
export type FuzzRole = (typeof FUZZ_ROLES)[number];

/** Identifiers the gateway handed out in earlier answers, by kind. */
export const POOLS = [
  'tenantId',
  'agentType',
  'toolName',
  'approvalId',
  'callId',
  'keyId',
  'eventId',
  'cursor',
  'yaml',
] as const;
export type PoolName = (typeof POOLS)[number];

/** How many values of one kind are kept (the newest). */
const POOL_SIZE = 64;

/**
 * A value the generator cannot know: "the n-th id of this kind seen so far", resolved when the
 * request is sent. Generated values stay plain data, so fast-check can print, replay and shrink them.
 */
export class PoolRef {
  constructor(
    readonly pool: PoolName,
    readonly index: number,
  ) {}
  [fc.toStringMethod](): string {
    return `ref(${this.pool}#${this.index})`;
  }
}

/** The binding version of the path's tenant and agent type, plus `offset` (0 is current, else stale). */
export class VersionRef {
  constructor(readonly offset: number) {}
  [fc.toStringMethod](): string {
    return `version(${this.offset >= 0 ? '+' : ''}${this.offset})`;
  }
}

/**
 * A key of `role` (the n-th one known), resolved when the request is sent: a live one, or with
 * `revoked` one the fuzzer's admins revoked earlier (a live one while there is none).
 */
export class KeyRef {
  constructor(
    readonly role: FuzzRole,
    readonly index: number,
    readonly revoked = false,
  ) {}
  [fc.toStringMethod](): string {
    return `key(${this.role}#${this.index}${this.revoked ? ', revoked' : ''})`;
  }
}

/** JSON text written as is: numbers JSON.stringify cannot produce (1e309, -0, 1e-400, 40 digits). */
export class RawJson {
  constructor(readonly text: string) {}
  [fc.toStringMethod](): string {
    return `raw(${this.text})`;
  }
}

const PRESET: Partial<Record<PoolName, string[]>> = {
  tenantId: ['acme', 'globex'],
  agentType: ['ops_assistant', 'contract_review'],
  toolName: ['get_service_status', 'read_logs', 'restart_service', 'query_supplier_delivery'],
};

/**
 * What the fuzzer knows about the gateway under test: keys per role, ids from earlier answers,
 * binding versions and exported tenant files. Fed by `apply` with what every answer revealed (fuzz-findings.ts).
 */
export class FuzzWorld {
  private readonly pools = new Map<PoolName, string[]>();
  private readonly keys = new Map<FuzzRole, string[]>();
  private readonly revokedKeys = new Map<FuzzRole, string[]>();
  /** Key id → role and secret, for the keys whose id is known (created through the API). */
  private readonly keyById = new Map<string, { role: FuzzRole; secret: string }>();
  private readonly versions = new Map<string, number>();
  /** Ids never handed to the fuzzer (the reserve admin key the final check needs). */
  private readonly hidden = new Set<string>();

  constructor() {
    for (const pool of POOLS) this.pools.set(pool, [...(PRESET[pool] ?? [])]);
    for (const role of FUZZ_ROLES) {
      this.keys.set(role, []);
      this.revokedKeys.set(role, []);
    }
  }

  /** A live key of `role`; `id` lets a later revocation move it to the revoked ones. */
  addKey(role: FuzzRole, secret: string, id?: string): void {
    const keys = this.keys.get(role)!;
    if (!keys.includes(secret)) keys.push(secret);
    if (id) this.keyById.set(id, { role, secret });
  }

  /** The key `id` was revoked: requests use it only when they ask for a revoked key. */
  revoke(id: string): void {
    const known = this.keyById.get(id);
    if (!known) return;
    const live = this.keys.get(known.role)!;
    const at = live.indexOf(known.secret);
    if (at !== -1) live.splice(at, 1);
    const revoked = this.revokedKeys.get(known.role)!;
    if (!revoked.includes(known.secret)) revoked.push(known.secret);
  }

  hide(id: string): void {
    this.hidden.add(id);
  }

  add(pool: PoolName, value: string): void {
    if (this.hidden.has(value)) return;
    const values = this.pools.get(pool)!;
    if (values.includes(value)) return;
    values.push(value);
    const preset = PRESET[pool]?.length ?? 0;
    if (values.length > POOL_SIZE) values.splice(preset, 1);
  }

  value(ref: PoolRef): string | undefined {
    const values = this.pools.get(ref.pool)!;
    return values.length === 0 ? undefined : values[ref.index % values.length];
  }

  key(ref: KeyRef): string | undefined {
    const live = this.keys.get(ref.role)!;
    const revoked = this.revokedKeys.get(ref.role)!;
    const keys = (ref.revoked && revoked.length) || live.length === 0 ? revoked : live;
    return keys.length === 0 ? undefined : keys[ref.index % keys.length];
  }

  /** How many live keys each role has left. */
  liveKeys(): Record<string, number> {
    return Object.fromEntries([...this.keys].map(([role, keys]) => [role, keys.length]));
  }

  version(tenantId: string, agentType: string): number | undefined {
    return this.versions.get(`${tenantId}/${agentType}`);
  }

  /** Learns what an answer revealed (see findingsOf): ids, keys, versions, revocations. */
  apply(findings: readonly Finding[]): void {
    for (const f of findings) {
      if (f.kind === 'id') this.add(f.pool, f.value);
      else if (f.kind === 'revoked') this.revoke(f.id);
      else if (f.kind === 'version') {
        this.versions.set(`${f.tenantId}/${f.agentType}`, f.version);
      } else if (FUZZ_ROLES.includes(f.role as FuzzRole) && !this.hidden.has(f.id)) {
        this.addKey(f.role as FuzzRole, f.secret, f.id);
      }
    }
  }
}
