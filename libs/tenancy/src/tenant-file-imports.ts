import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { canonicalJson } from '@toolgate/toolkit';
import { storedRunSettings } from './agent-run-settings.js';
import type { TenantFileImportEntity } from './entities/tenant-file-import.entity.js';
import { TENANCY_OPTIONS, type TenancyOptions } from './tenancy.options.js';
import { TenantRepository } from './tenant.repository.js';

/** The actor of imports made from tenant files: the binding rows' `updatedBy`, the audit's system actor. */
export const FILE_IMPORT_ACTOR = { type: 'system' as const, id: 'config' };

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Remembers what the last import of each tenant's file left in the database, and tells whether the
 * tenant is still exactly that: the test that lets a changed file replace a tenant without ever
 * overwriting what an admin changed in the console or through the API (ADR 029).
 */
@Injectable()
export class TenantFileImports {
  constructor(
    private readonly tenants: TenantRepository,
    @Inject(TENANCY_OPTIONS) private readonly options: TenancyOptions,
  ) {}

  /** The hash a file's text is remembered by. */
  fileHash(text: string): string {
    return sha256(text);
  }

  /** The text of the file a tenant is imported from (`<configDir>/tenants/<id>.yaml` or `.yml`). */
  private fileText(tenantId: string): string | undefined {
    for (const ext of ['yaml', 'yml']) {
      try {
        return readFileSync(join(this.options.configDir, 'tenants', `${tenantId}.${ext}`), 'utf8');
      } catch {
        /* not this one */
      }
    }
    return undefined;
  }

  lastImport(tenantId: string): Promise<TenantFileImportEntity | null> {
    return this.tenants.lastFileImport(tenantId);
  }

  /**
   * The tenant as it is stored, in one hash: its name, locale, connectors and settings, and each
   * agent type's description, tools and run settings. Versions and times are left out: saving
   * the same content again is no change.
   */
  async stateHash(tenantId: string): Promise<string> {
    const tenant = await this.tenants.findTenant(tenantId);
    const bindings = await this.tenants.bindingsOf(tenantId);
    return sha256(
      canonicalJson({
        tenant: tenant && {
          name: tenant.name,
          locale: tenant.locale,
          connectors: tenant.connectors ?? {},
          settings: tenant.settings ?? {},
        },
        agentTypes: bindings.map((b) => ({
          agentType: b.agentType,
          description: b.description,
          tools: b.tools,
          run: storedRunSettings(b.run),
        })),
      }),
    );
  }

  /** Records that the tenant is now as the file with this text made it. */
  async record(tenantId: string, text: string): Promise<void> {
    await this.tenants.recordFileImport(tenantId, this.fileHash(text), await this.stateHash(tenantId));
  }

  /**
   * After an import through the API: when its text is the tenant's file as it is on disk, the
   * tenant is as that file made it, and later edits of the file may follow again.
   */
  async recordIfTheFile(tenantId: string, text: string): Promise<void> {
    if (this.fileText(tenantId) === text) await this.record(tenantId, text);
  }

  /**
   * True when nobody changed the tenant since `last` was recorded. A tenant imported before these
   * records existed has none: it counts as untouched only when it was never changed at all (every
   * agent type still at version 1 from the file, the tenant's fields never updated).
   */
  async untouchedSince(tenantId: string, last: TenantFileImportEntity | null): Promise<boolean> {
    if (last) return (await this.stateHash(tenantId)) === last.stateHash;
    const tenant = await this.tenants.findTenant(tenantId);
    if (!tenant || tenant.updatedAt.getTime() !== tenant.createdAt.getTime()) return false;
    return (await this.tenants.bindingsOf(tenantId)).every(
      (b) => b.version === 1 && b.updatedBy === FILE_IMPORT_ACTOR.id,
    );
  }
}
