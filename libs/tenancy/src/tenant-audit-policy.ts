import { Injectable } from '@nestjs/common';
import { redactionSettingsSchema, type AuditPolicySource, type RedactionSettings } from '@toolgate/audit';
import { TenantRepository } from './tenant.repository.js';

/** Tells the audit trail how each tenant wants its values redacted (`audit.redaction` of its file). */
@Injectable()
export class TenantAuditPolicy implements AuditPolicySource {
  constructor(private readonly tenants: TenantRepository) {}

  async redactionFor(tenantId: string): Promise<RedactionSettings | undefined> {
    const tenant = await this.tenants.findTenant(tenantId);
    const parsed = redactionSettingsSchema.safeParse(
      (tenant?.settings as { audit?: { redaction?: unknown } } | undefined)?.audit?.redaction,
    );
    return parsed.success ? parsed.data : undefined;
  }
}
