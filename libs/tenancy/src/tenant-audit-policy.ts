import { Inject, Injectable } from '@nestjs/common';
import {
  tenantAuditSettingsSchema,
  type AuditPolicySource,
  type RedactionSettings,
  type RetentionPolicySource,
} from '@toolgate/audit';
import { BindingResolver } from './binding-resolver.js';
import { TENANCY_OPTIONS, type TenancyOptions } from './tenancy.options.js';
import { TenantRepository } from './tenant.repository.js';

/**
 * Tells the audit trail how each tenant wants its values redacted (`audit.redaction` of its file)
 * and whether it records its agent runs' text (`audit.runText`).
 * Reads the row itself, not BindingResolver's snapshot: it is asked while a tenant's import is
 * still in flight, where a cached snapshot would keep the tenant missing after it commits.
 */
@Injectable()
export class TenantAuditPolicy implements AuditPolicySource, RetentionPolicySource {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly bindings: BindingResolver,
    @Inject(TENANCY_OPTIONS) private readonly options: TenancyOptions,
  ) {}

  /** The retention floor the tenant's own settings add (ADR 048), when they add one. */
  async tenantFloorDays(tenantId: string): Promise<number | undefined> {
    if (!this.options.retentionFloorOf) return undefined;
    const tenant = await this.tenants.findTenant(tenantId);
    return tenant ? this.options.retentionFloorOf(tenant.settings ?? {}) : undefined;
  }

  async redactionFor(tenantId: string): Promise<RedactionSettings | null> {
    const tenant = await this.tenants.findTenant(tenantId);
    if (!tenant) return null;
    const parsed = tenantAuditSettingsSchema.safeParse(tenant.settings?.audit ?? {});
    return (parsed.success && parsed.data.redaction) || {};
  }

  /** The tenant file's `audit.retentionDays` (ADR 037), when it sets one. */
  async fileRetentionDays(tenantId: string): Promise<number | undefined> {
    const tenant = await this.tenants.findTenant(tenantId);
    const parsed = tenantAuditSettingsSchema.safeParse(tenant?.settings?.audit ?? {});
    return parsed.success ? parsed.data.retentionDays : undefined;
  }

  /** Every tenant's id (retention lists them all, with or without a chain yet). */
  async tenantIds(): Promise<string[]> {
    return (await this.tenants.listTenants()).map((t) => t.id);
  }

  /**
   * Whether the tenant's trail records its agent runs' text (question, answer, model text): off
   * unless its file says `audit: { runText: true }` — prompts and answers often carry what the
   * tool inputs' redaction was built to keep out. Asked twice per run, of a tenant whose agent
   * type the run resolved: the tenant row as cached with its bindings (no read per run; a change
   * through this gateway applies at once, elsewhere within the bindings' cache time).
   */
  /**
   * Whether the tenant's read-only (L0) calls are recorded as `accessed` events: on unless its file
   * says `audit: { l0Access: false }` (issue 23). The tenant row as cached with its bindings.
   */
  async recordsL0Access(tenantId: string): Promise<boolean> {
    const tenant = await this.bindings.tenant(tenantId);
    const parsed = tenantAuditSettingsSchema.safeParse(tenant?.settings?.audit ?? {});
    return !parsed.success || parsed.data.l0Access !== false;
  }

  async recordsRunText(tenantId: string): Promise<boolean> {
    const tenant = await this.bindings.tenant(tenantId);
    const parsed = tenantAuditSettingsSchema.safeParse(tenant?.settings?.audit ?? {});
    return parsed.success && parsed.data.runText === true;
  }
}
