import { Inject, Injectable, Logger } from '@nestjs/common';
import { isSeparatedRole, type ApiKeyView, type CreatedKey } from '@toolgate/contract';
import { AuditTrail, type AdminEvent } from '@toolgate/audit';
import { isUniqueViolation, RefreshingCache } from '@toolgate/database';
import { andThen, ErrorCode, ToolgateError, uuidv7, type MaybePromise } from '@toolgate/toolkit';
import { ApiKeyEntity, toApiKeyView } from './api-key.entity.js';
import { ApiKeyRepository } from './api-key.repository.js';
import { AUTH_OPTIONS, type AuthOptions } from './auth.options.js';
import { displayPrefix, generateKeySecret, hashKeySecret } from './key-format.js';
import { canAccessTenant, type Principal } from './principal.js';
import { ROLES, TENANT_BOUND_ROLES, TENANT_GRANTABLE_ROLES, type Role } from './roles.js';
import { dutiesSeparated, rolesConflict, SeparatedDuties } from './separated-duties.js';

/** What a caller asks for when creating a key. */
export interface CreateKeyCommand {
  readonly name: string;
  readonly role: Role;
  readonly tenantId?: string | null;
  readonly agentTypes?: readonly string[] | null;
  /** The person who answers for the key (`<provider>:<subject>`), for separation of duties. */
  readonly owner?: string | null;
}

// A key as the API shows it (never the secret, never the hash) is the REST contract's ApiKeyView;
// CreatedKey adds the secret, shown this once.
export type { ApiKeyView, CreatedKey } from '@toolgate/contract';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** A person as `<provider>:<subject>` (the principal id of a signed-in person); one linear pattern. */
const KEY_OWNER = /^[a-z][a-z0-9_-]{0,31}:[^\s:][^\s]{0,254}$/;

/**
 * How long a request waits for the database to confirm a key it has no fresh cache entry for,
 * before it fails with NOT_READY rather than trusting what it last saw.
 */
const KEY_LOOKUP_DEADLINE_MS = 2_000;

function toPrincipal(e: ApiKeyEntity): Principal {
  return Object.freeze({
    principalType: 'api_key' as const,
    principalId: e.id,
    role: e.role,
    tenantId: e.tenantId,
    agentTypes: e.agentTypes ? Object.freeze([...e.agentTypes]) : null,
    name: e.name,
  });
}

/** A new key row for `secret`; only its hash and display prefix are kept. */
function newKeyEntity(
  secret: string,
  fields: Pick<ApiKeyEntity, 'name' | 'role' | 'tenantId' | 'agentTypes' | 'createdBy' | 'bootstrap'> &
    Partial<Pick<ApiKeyEntity, 'owner'>>,
): ApiKeyEntity {
  return Object.assign(new ApiKeyEntity(), {
    id: `key_${uuidv7().replace(/-/g, '')}`,
    owner: null,
    ...fields,
    keyHash: hashKeySecret(secret),
    keyPrefix: displayPrefix(secret),
    createdAt: new Date(),
    revokedAt: null,
  });
}

const invalid = (message: string) =>
  new ToolgateError(ErrorCode.INVALID_INPUT, {
    params: { summary: message },
    details: { issues: [{ path: '', message }] },
  });

/**
 * API keys: creation (secret shown once), listing, revocation, and verification of the secret
 * a request carries. Verified keys are cached briefly so the hot path does not query the database.
 */
@Injectable()
export class ApiKeyService {
  private readonly logger = new Logger(ApiKeyService.name);
  /** Verified keys by hash: the hot path does not ask the database (see AuthOptions.keyCacheTtlMs). */
  private readonly principals: RefreshingCache<string, Principal>;

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly audit: AuditTrail,
    @Inject(AUTH_OPTIONS) options: AuthOptions,
    private readonly duties: SeparatedDuties,
  ) {
    // Never stale: a key revoked on another gateway must stop working within keyCacheTtlMs even
    // while the database is slow, so an expired entry waits for the database or the request fails.
    this.principals = new RefreshingCache(
      async (hash) => {
        const entity = await this.keys.findActiveByHash(hash);
        return entity ? toPrincipal(entity) : undefined;
      },
      { ttlMs: options.keyCacheTtlMs, waitOnStaleMs: KEY_LOOKUP_DEADLINE_MS, maxStaleMs: 0 },
    );
  }

  /**
   * The principal behind an `Authorization: Bearer <key>` header, allowed one of `roles` (any role
   * when undefined). Throws UNAUTHENTICATED (no, unknown or revoked key) or FORBIDDEN (wrong role).
   * A plain principal when the key is cached and fresh — the invoke route's hot path, where every
   * await is a promise and a microtask per call (ADR 022) — a promise while the key is looked up.
   */
  authorize(authorization: string | undefined, roles?: readonly Role[]): MaybePromise<Principal> {
    const match = BEARER.exec(authorization ?? '');
    if (!match) throw new ToolgateError(ErrorCode.UNAUTHENTICATED);
    const cached = this.principals.get(hashKeySecret(match[1]!));
    // The cache answers a new promise per `get`: this one must be the one awaited (a second lookup
    // would leave it unhandled when the database is down).
    return andThen(cached instanceof Promise ? this.settle(cached) : (cached ?? null), allowed, roles);
  }

  /**
   * The principal of a secret, or null when the key is unknown or revoked. Throws NOT_READY (503)
   * when the database does not confirm the key within KEY_LOOKUP_DEADLINE_MS.
   */
  async authenticate(secret: string): Promise<Principal | null> {
    const cached = this.principals.get(hashKeySecret(secret));
    return cached instanceof Promise ? this.settle(cached) : (cached ?? null);
  }

  /**
   * Whether a secret that was refused belongs to a revoked key or to none: for the platform's
   * security log only (a refused request's path, never a request that succeeds).
   */
  async refusedKeyStatus(secret: string): Promise<'revoked' | 'unknown'> {
    const key = await this.keys.findByHash(hashKeySecret(secret));
    return key?.revokedAt ? 'revoked' : 'unknown';
  }

  /** A key's lookup in the store, bounded; a failure refuses the request with NOT_READY. */
  private async settle(lookup: Promise<Principal | undefined>): Promise<Principal | null> {
    let timer: NodeJS.Timeout | undefined;
    // The cache bounds a refresh; this bounds a key's first lookup too.
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${KEY_LOOKUP_DEADLINE_MS} ms`)),
        KEY_LOOKUP_DEADLINE_MS,
      );
    });
    try {
      return (await Promise.race([lookup, deadline])) ?? null;
    } catch (err) {
      this.logger.warn(`refusing a request: the key could not be checked: ${(err as Error).message}`);
      throw new ToolgateError(ErrorCode.NOT_READY, {
        params: { reason: 'the credential store is unavailable' },
        cause: err,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Creates a key on behalf of `actor`; the secret is in the answer and nowhere else. */
  async create(actor: Principal | null, command: CreateKeyCommand): Promise<CreatedKey> {
    const tenantId = command.tenantId ?? null;
    // Who may grant comes first: a tenant admin asking for a platform key is refused, not corrected.
    if (actor) this.checkGrant(actor, command.role, tenantId);
    this.checkCommand(command, tenantId);
    const secret = generateKeySecret();
    const entity = newKeyEntity(secret, {
      name: command.name.trim(),
      role: command.role,
      tenantId,
      agentTypes: command.agentTypes?.length ? [...command.agentTypes] : null,
      owner: command.owner ?? null,
      createdBy: actor?.principalId ?? 'system',
      bootstrap: false,
    });
    await this.insert(actor, entity);
    return { ...toApiKeyView(entity), key: secret };
  }

  /**
   * Stores a new key together with its `key_created` audit event. Under the profile, an
   * administrator's key is refused (ROLES_CONFLICT) when its owner already answers for another
   * separated role — checked in the insert's transaction.
   */
  private insert(actor: Principal | null, entity: ApiKeyEntity): Promise<void> {
    return this.keys.insert(entity, async (em) => {
      if (this.duties.on && entity.owner && isSeparatedRole(entity.role)) {
        const held = (await this.keys.activeRolesOwnedBy(entity.owner, em)).find(
          (r) => isSeparatedRole(r) && r !== entity.role,
        );
        if (held) throw rolesConflict(entity.owner, entity.role, held);
      }
      await this.audit.recordIn(em, [this.keyEvent('key_created', actor, entity)]);
    });
  }

  /** The audit event of a key's creation or revocation (never the secret, never the hash). */
  private keyEvent(
    event: 'key_created' | 'key_revoked',
    actor: Principal | null,
    e: ApiKeyEntity,
  ): AdminEvent {
    return {
      event,
      tenantId: e.tenantId,
      actor: actor ? { type: actor.principalType, id: actor.principalId } : { type: 'system', id: 'system' },
      details: {
        keyId: e.id,
        name: e.name,
        role: e.role,
        agentTypes: e.agentTypes,
        prefix: e.keyPrefix,
        ...(e.owner ? { owner: e.owner } : {}),
      },
    };
  }

  /** Stores a key with a given secret (TOOLGATE_ADMIN_KEY, bootstrap keys). */
  async ensureKey(secret: string, command: CreateKeyCommand, bootstrap: boolean): Promise<ApiKeyView> {
    const entity = newKeyEntity(secret, {
      name: command.name,
      role: command.role,
      tenantId: command.tenantId ?? null,
      agentTypes: null,
      createdBy: 'system',
      bootstrap,
    });
    const existing = await this.keys.findActiveByHash(entity.keyHash);
    if (existing) return toApiKeyView(existing);
    try {
      await this.insert(null, entity);
    } catch (err) {
      // Another gateway booting with the same TOOLGATE_ADMIN_KEY stored it first.
      const stored = isUniqueViolation(err) ? await this.keys.findActiveByHash(entity.keyHash) : null;
      if (!stored) throw err;
      return toApiKeyView(stored);
    }
    return toApiKeyView(entity);
  }

  /** True when `secret` is the secret of a key that was revoked: it can never sign in again. */
  async isRevokedSecret(secret: string): Promise<boolean> {
    const key = await this.keys.findByHash(hashKeySecret(secret));
    return key !== null && key.revokedAt !== null;
  }

  /** Keys the actor may see: its tenant's, or all of them for platform-wide administrators. */
  async list(actor: Principal): Promise<ApiKeyView[]> {
    const rows = await this.keys.list(actor.tenantId === null ? undefined : actor.tenantId);
    return rows.map(toApiKeyView);
  }

  /** Revokes a key the actor may manage. Another tenant's key is reported as not found. */
  async revoke(actor: Principal | null, keyId: string): Promise<ApiKeyView> {
    const entity = await this.keys.findById(keyId);
    if (!entity || (actor && actor.tenantId !== null && entity.tenantId !== actor.tenantId)) {
      throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `key ${keyId}` } });
    }
    // Who may take a key away is who may hand it out.
    if (actor) this.checkGrant(actor, entity.role, entity.tenantId);
    const at = new Date();
    await this.revokeKey(actor, entity, at);
    return toApiKeyView(Object.assign(new ApiKeyEntity(), entity, { revokedAt: entity.revokedAt ?? at }));
  }

  /**
   * Changes who answers for a key the actor may manage (who may hand it out may re-own it), with a
   * `key_owner_changed` event, before and after. Under the profile a separated administrator's key
   * keeps an owner, and not one who answers for another of the three roles (ROLES_CONFLICT).
   */
  async changeOwner(actor: Principal, keyId: string, owner: string | null): Promise<ApiKeyView> {
    const entity = await this.keys.findById(keyId);
    if (!entity || entity.revokedAt || (actor.tenantId !== null && entity.tenantId !== actor.tenantId)) {
      throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `key ${keyId}` } });
    }
    this.checkGrant(actor, entity.role, entity.tenantId);
    if (owner !== null && !KEY_OWNER.test(owner))
      throw invalid('owner is a person as <provider>:<subject>, e.g. oidc:248289761001');
    const separated = this.duties.on && isSeparatedRole(entity.role);
    if (separated && owner === null)
      throw invalid(`under the dengbao3 profile a ${entity.role} key names its owner (<provider>:<subject>)`);
    const changed = await this.keys.changeOwner(keyId, owner, async (em) => {
      if (separated && owner) {
        const held = (await this.keys.activeRolesOwnedBy(owner, em)).find(
          (r) => isSeparatedRole(r) && r !== entity.role,
        );
        if (held) throw rolesConflict(owner, entity.role, held);
      }
      await this.audit.recordIn(em, [
        {
          event: 'key_owner_changed',
          tenantId: entity.tenantId,
          actor: { type: actor.principalType, id: actor.principalId },
          details: {
            outcome: 'success',
            keyId: entity.id,
            name: entity.name,
            role: entity.role,
            before: entity.owner,
            after: owner,
          },
        },
      ]);
    });
    if (!changed) throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `key ${keyId}` } });
    return toApiKeyView(Object.assign(new ApiKeyEntity(), entity, { owner }));
  }

  /** Revokes every earlier bootstrap key; used when a fresh one is made at boot. */
  async revokeBootstrapKeysExcept(keepId: string): Promise<string[]> {
    const revoked: string[] = [];
    for (const key of await this.keys.activeBootstrapKeys()) {
      if (key.id === keepId) continue;
      if (await this.revokeKey(null, key, new Date())) revoked.push(key.id);
    }
    return revoked;
  }

  /** Revokes a key with its `key_revoked` event and forgets it here at once; true when this call revoked it. */
  private async revokeKey(actor: Principal | null, key: ApiKeyEntity, at: Date): Promise<boolean> {
    const revoked = await this.keys.revoke(key.id, at, (em) =>
      this.audit.recordIn(em, [this.keyEvent('key_revoked', actor, key)]),
    );
    this.principals.invalidate(key.keyHash);
    return revoked;
  }

  private checkCommand(command: CreateKeyCommand, tenantId: string | null): void {
    if (typeof command.name !== 'string' || !command.name.trim() || command.name.length > 200) {
      throw invalid('name must be a non-empty string of at most 200 characters');
    }
    if (!ROLES.includes(command.role)) throw invalid(`role must be one of ${ROLES.join(', ')}`);
    if (TENANT_BOUND_ROLES.includes(command.role) && !tenantId)
      throw invalid(`a ${command.role} key needs a tenantId`);
    if ((command.role === 'platform_admin' || isSeparatedRole(command.role)) && tenantId)
      throw invalid(`a ${command.role} key has no tenant`);
    // The profile keeps administrators apart by the person who answers for each key.
    if (this.duties.on && isSeparatedRole(command.role) && !command.owner)
      throw invalid(
        `under the dengbao3 profile a ${command.role} key names its owner (<provider>:<subject>), so no person holds two administrator roles`,
      );
    if (command.agentTypes && command.role !== 'agent')
      throw invalid('agentTypes only applies to agent keys');
    if (command.owner !== undefined && command.owner !== null && !KEY_OWNER.test(command.owner))
      throw invalid('owner is a person as <provider>:<subject>, e.g. oidc:248289761001');
  }

  /**
   * Who may hand out (and take away) a key of `role`: the administrators' keys (platform_admin and
   * the separated roles) are the platform admin's to give; the tenants' roles a security admin's,
   * or a tenant admin's within its tenant. Under the profile the platform admin gives nothing else
   * (DUTIES_SEPARATED naming the security admin), and without it gives everything (ADR 039).
   */
  private checkGrant(actor: Principal, role: Role, tenantId: string | null): void {
    const administrator = role === 'platform_admin' || isSeparatedRole(role);
    if (actor.role === 'platform_admin') {
      if (this.duties.on && !administrator) throw dutiesSeparated('keys', ['security_admin'], actor.role);
      return;
    }
    if (administrator) {
      if (this.duties.on) throw dutiesSeparated('appointing administrators', ['platform_admin'], actor.role);
      throw new ToolgateError(ErrorCode.FORBIDDEN);
    }
    const allowed =
      (actor.role === 'security_admin' && TENANT_GRANTABLE_ROLES.includes(role)) ||
      (actor.role === 'tenant_admin' &&
        TENANT_GRANTABLE_ROLES.includes(role) &&
        tenantId !== null &&
        canAccessTenant(actor, tenantId));
    if (!allowed) throw new ToolgateError(ErrorCode.FORBIDDEN);
  }
}

/** The principal when it may act in one of `roles`; UNAUTHENTICATED without one, FORBIDDEN otherwise. */
function allowed(principal: Principal | null, roles: readonly Role[] | undefined): Principal {
  if (!principal) throw new ToolgateError(ErrorCode.UNAUTHENTICATED);
  if (roles && !roles.includes(principal.role)) throw new ToolgateError(ErrorCode.FORBIDDEN);
  return principal;
}
