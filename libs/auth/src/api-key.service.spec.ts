import type { AdminEvent, AuditTrail } from '@toolgate/audit';
import { dataSourceOptions, TransactionRunner } from '@toolgate/database';
import { ErrorCode, settled } from '@toolgate/toolkit';
import { DataSource } from 'typeorm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeyEntity } from './api-key.entity.js';
import { ApiKeyRepository } from './api-key.repository.js';
import { SeparatedDuties } from './separated-duties.js';
import { ApiKeyService, type CreateKeyCommand } from './api-key.service.js';
import { hashKeySecret } from './key-format.js';
import { CreateApiKeys1764480000000 } from './migrations/1764480000000-create-api-keys.js';
import { SessionsAndKeyOwners1765100000000 } from './migrations/1765100000000-sessions-and-key-owners.js';
import type { Principal } from './principal.js';

/** The audit trail as the service uses it: events recorded inside the key's transaction. */
class RecordedEvents {
  readonly events: AdminEvent[] = [];
  async recordIn(_em: unknown, events: readonly AdminEvent[]): Promise<void> {
    this.events.push(...events);
  }
}

describe('ApiKeyService', () => {
  let dataSource: DataSource;
  let audit: RecordedEvents;
  let keys: ApiKeyService;
  let platformAdmin: Principal;
  let acmeAdmin: Principal;

  /** Creates a key and answers its secret and principal. */
  async function created(actor: Principal | null, command: CreateKeyCommand) {
    const key = await keys.create(actor, command);
    return { key, principal: (await keys.authenticate(key.key))! };
  }

  beforeEach(async () => {
    dataSource = new DataSource({
      ...dataSourceOptions({ kind: 'sqlite', path: ':memory:' }),
      entities: [ApiKeyEntity],
      migrations: [CreateApiKeys1764480000000, SessionsAndKeyOwners1765100000000],
    });
    await dataSource.initialize();
    await dataSource.runMigrations();
    audit = new RecordedEvents();
    keys = new ApiKeyService(
      new ApiKeyRepository(dataSource.getRepository(ApiKeyEntity), new TransactionRunner(dataSource)),
      audit as unknown as AuditTrail,
      { generateAdminKey: false, keyCacheTtlMs: 60_000 },
      new SeparatedDuties({ generateAdminKey: false, keyCacheTtlMs: 60_000 }),
    );
    platformAdmin = (await created(null, { name: 'root', role: 'platform_admin' })).principal;
    acmeAdmin = (await created(platformAdmin, { name: 'acme admin', role: 'tenant_admin', tenantId: 'acme' }))
      .principal;
  });
  afterEach(() => dataSource.destroy());

  it('shows the secret once and stores only its hash and display prefix', async () => {
    const key = await keys.create(acmeAdmin, { name: ' bot ', role: 'agent', tenantId: 'acme' });
    expect(key).toMatchObject({
      name: 'bot',
      role: 'agent',
      tenantId: 'acme',
      createdBy: acmeAdmin.principalId,
    });
    expect(key.prefix).toBe(key.key.slice(0, 9));
    const row = await dataSource.getRepository(ApiKeyEntity).findOneByOrFail({ id: key.id });
    expect(row.keyHash).toBe(hashKeySecret(key.key));
    expect(JSON.stringify(row)).not.toContain(key.key);
    const event = audit.events.at(-1)!;
    expect(event).toMatchObject({ event: 'key_created', tenantId: 'acme', details: { keyId: key.id } });
    expect(JSON.stringify(event)).not.toContain(key.key);
    expect(JSON.stringify(event)).not.toContain(row.keyHash);
  });

  it('authorizes a Bearer key (any case, trailing space) and refuses a missing, malformed or unknown one', async () => {
    const { key } = await created(acmeAdmin, { name: 'bot', role: 'agent', tenantId: 'acme' });
    await expect(settled(() => keys.authorize(`bearer ${key.key} `))).resolves.toMatchObject({
      principalId: key.id,
    });
    for (const header of [undefined, key.key, `Basic ${key.key}`, 'Bearer tg_unknown', `Bearer ${key.key} x`])
      await expect(settled(() => keys.authorize(header))).rejects.toMatchObject({
        code: ErrorCode.UNAUTHENTICATED,
      });
  });

  it('refuses a valid key whose role the route does not allow', async () => {
    const { key } = await created(acmeAdmin, { name: 'bot', role: 'agent', tenantId: 'acme' });
    await expect(
      settled(() => keys.authorize(`Bearer ${key.key}`, ['approver', 'tenant_admin'])),
    ).rejects.toMatchObject({
      code: ErrorCode.FORBIDDEN,
    });
    await expect(settled(() => keys.authorize(`Bearer ${key.key}`, ['agent']))).resolves.toMatchObject({
      role: 'agent',
    });
  });

  it('stops a revoked key at once on the revoking gateway, though it was cached', async () => {
    const { key } = await created(acmeAdmin, { name: 'bot', role: 'agent', tenantId: 'acme' });
    await keys.authorize(`Bearer ${key.key}`); // cached now
    const view = await keys.revoke(acmeAdmin, key.id);
    expect(view.revokedAt).not.toBeNull();
    await expect(settled(() => keys.authorize(`Bearer ${key.key}`))).rejects.toMatchObject({
      code: ErrorCode.UNAUTHENTICATED,
    });
    expect(audit.events.at(-1)).toMatchObject({ event: 'key_revoked', details: { keyId: key.id } });
  });

  it('lets a tenant admin grant tenant roles in its own tenant only', async () => {
    for (const role of ['tenant_admin', 'approver', 'auditor', 'agent'] as const)
      await expect(keys.create(acmeAdmin, { name: role, role, tenantId: 'acme' })).resolves.toMatchObject({
        role,
        tenantId: 'acme',
      });
    const refused: CreateKeyCommand[] = [
      { name: 'x', role: 'agent', tenantId: 'globex' },
      { name: 'x', role: 'platform_admin' },
      { name: 'x', role: 'auditor' }, // a tenantless auditor reads every tenant
    ];
    for (const command of refused)
      await expect(keys.create(acmeAdmin, command)).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
  });

  it('lets only admins create keys', async () => {
    const approver = (await created(acmeAdmin, { name: 'ann', role: 'approver', tenantId: 'acme' }))
      .principal;
    await expect(keys.create(approver, { name: 'x', role: 'agent', tenantId: 'acme' })).rejects.toMatchObject(
      {
        code: ErrorCode.FORBIDDEN,
      },
    );
  });

  it('checks the shape of a key: tenant where the role needs one, none for platform admins, agent types for agents', async () => {
    const invalid: [CreateKeyCommand, string][] = [
      [{ name: 'x', role: 'approver' }, 'a approver key needs a tenantId'],
      [{ name: 'x', role: 'platform_admin', tenantId: 'acme' }, 'a platform_admin key has no tenant'],
      [
        { name: 'x', role: 'approver', tenantId: 'acme', agentTypes: ['ops'] },
        'agentTypes only applies to agent keys',
      ],
      [
        { name: '  ', role: 'agent', tenantId: 'acme' },
        'name must be a non-empty string of at most 200 characters',
      ],
      [{ name: 'x', role: 'root' as never, tenantId: 'acme' }, 'role must be one of'],
    ];
    for (const [command, message] of invalid)
      await expect(keys.create(platformAdmin, command)).rejects.toMatchObject({
        code: ErrorCode.INVALID_INPUT,
        params: { summary: expect.stringContaining(message) },
      });
  });

  it("hides another tenant's keys: listing shows one's own tenant, revoking answers NOT_FOUND", async () => {
    const globex = (await created(platformAdmin, { name: 'g', role: 'agent', tenantId: 'globex' })).key;
    await expect(keys.revoke(acmeAdmin, globex.id)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await expect(keys.revoke(acmeAdmin, platformAdmin.principalId)).rejects.toMatchObject({
      code: ErrorCode.NOT_FOUND,
    });
    expect((await keys.list(acmeAdmin)).map((k) => k.tenantId)).toEqual(['acme']);
    expect(await keys.list(platformAdmin)).toHaveLength(3);
  });

  it('stores a given secret once however often it is ensured, and replaces earlier bootstrap keys', async () => {
    const first = await keys.ensureKey('tg_boot_one', { name: 'boot', role: 'platform_admin' }, true);
    expect((await keys.ensureKey('tg_boot_one', { name: 'boot', role: 'platform_admin' }, true)).id).toBe(
      first.id,
    );
    const second = await keys.ensureKey('tg_boot_two', { name: 'boot', role: 'platform_admin' }, true);
    expect(await keys.revokeBootstrapKeysExcept(second.id)).toEqual([first.id]);
    await expect(settled(() => keys.authorize('Bearer tg_boot_one'))).rejects.toMatchObject({
      code: ErrorCode.UNAUTHENTICATED,
    });
    await expect(settled(() => keys.authorize('Bearer tg_boot_two'))).resolves.toMatchObject({
      role: 'platform_admin',
    });
  });

  describe('under the dengbao3 profile (三员分立, ADR 039)', () => {
    let separated: ApiKeyService;
    const options = { generateAdminKey: false, keyCacheTtlMs: 60_000, separatedDuties: true };
    beforeEach(() => {
      separated = new ApiKeyService(
        new ApiKeyRepository(dataSource.getRepository(ApiKeyEntity), new TransactionRunner(dataSource)),
        audit as unknown as AuditTrail,
        options,
        new SeparatedDuties(options),
      );
    });
    const principalOf = async (command: CreateKeyCommand) =>
      (await separated.authenticate((await separated.create(platformAdmin, command)).key))!;

    it('lets the platform admin appoint the administrators, each with its owner, and nothing else', async () => {
      await expect(
        separated.create(platformAdmin, { name: 'a', role: 'audit_admin', owner: 'oidc:ann' }),
      ).resolves.toMatchObject({ role: 'audit_admin', tenantId: null, owner: 'oidc:ann' });
      await expect(separated.create(platformAdmin, { name: 'a', role: 'audit_admin' })).rejects.toMatchObject(
        {
          code: ErrorCode.INVALID_INPUT,
        },
      );
      await expect(
        separated.create(platformAdmin, {
          name: 'a',
          role: 'audit_admin',
          owner: 'oidc:ann',
          tenantId: 'acme',
        }),
      ).rejects.toMatchObject({ code: ErrorCode.INVALID_INPUT });
      await expect(
        separated.create(platformAdmin, { name: 'x', role: 'agent', tenantId: 'acme' }),
      ).rejects.toMatchObject({
        code: ErrorCode.DUTIES_SEPARATED,
        details: { requiredRole: 'security_admin' },
      });
    });

    it('lets the security admin hand out the tenants’ roles, never an administrator’s', async () => {
      const security = await principalOf({ name: 's', role: 'security_admin', owner: 'oidc:sue' });
      const agent = await separated.create(security, { name: 'bot', role: 'agent', tenantId: 'acme' });
      expect(agent).toMatchObject({ role: 'agent', createdBy: security.principalId });
      await expect(separated.revoke(security, agent.id)).resolves.toMatchObject({ id: agent.id });
      for (const role of ['audit_admin', 'system_admin', 'platform_admin'] as const)
        await expect(
          separated.create(security, { name: 'x', role, owner: 'oidc:zed' }),
        ).rejects.toMatchObject({
          code: ErrorCode.DUTIES_SEPARATED,
          details: { requiredRole: 'platform_admin' },
        });
    });

    it('refuses one person a second administrator role until the first is revoked', async () => {
      const sys = await separated.create(platformAdmin, {
        name: 's',
        role: 'system_admin',
        owner: 'oidc:dan',
      });
      await expect(
        separated.create(platformAdmin, { name: 'a', role: 'audit_admin', owner: 'oidc:dan' }),
      ).rejects.toMatchObject({
        code: ErrorCode.ROLES_CONFLICT,
        details: { person: 'oidc:dan', role: 'audit_admin', heldRole: 'system_admin' },
      });
      const recorded = audit.events.length;
      await separated.revoke(platformAdmin, sys.id);
      expect(audit.events.length).toBe(recorded + 1);
      await expect(
        separated.create(platformAdmin, { name: 'a', role: 'audit_admin', owner: 'oidc:dan' }),
      ).resolves.toMatchObject({ role: 'audit_admin' });
    });
  });
});
