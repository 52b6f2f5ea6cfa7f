import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { AuditQueries, AuditTrail, PLATFORM_TENANT } from '@toolgate/audit';
import { AUTH_OPTIONS, type AuthOptions } from '../auth.options.js';
import type { ClaimRoleRule } from './oidc.options.js';

/** The rules in a stable form: what is compared between boots and recorded. */
function canonicalRules(rules: readonly ClaimRoleRule[]): ClaimRoleRule[] {
  return rules.map((r) => ({
    claim: r.claim,
    equals: r.equals,
    role: r.role,
    ...(r.tenantId ? { tenantId: r.tenantId } : {}),
  }));
}

const digestOf = (rules: readonly ClaimRoleRule[]) =>
  `sha256:${createHash('sha256')
    .update(JSON.stringify(canonicalRules(rules)))
    .digest('hex')}`;

/**
 * The OIDC claim → role rules are configuration (`auth.oidc.rules`), read at boot. A change to
 * them is a change of who holds which role (等保 8.1.4.3 a), so a boot whose rules differ from the
 * last recorded ones records `role_mapping_changed` on the platform chain, before and after. The
 * comparison is by digest: the recorded rules pass the redactor, which may mask an e-mail.
 */
@Injectable()
export class RoleMappingAudit implements OnApplicationBootstrap {
  private readonly logger = new Logger('RoleMapping');

  constructor(
    private readonly queries: AuditQueries,
    private readonly audit: AuditTrail,
    @Inject(AUTH_OPTIONS) private readonly options: AuthOptions,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    try {
      await this.recordIfChanged();
    } catch (err) {
      // The gateway still boots: people keep signing in; the log says what the trail lacks.
      this.logger.error(`the role mapping could not be compared or recorded: ${(err as Error).message}`);
    }
  }

  /** Records the rules when they differ from the last recorded ones; true when it recorded. */
  async recordIfChanged(): Promise<boolean> {
    const rules = this.options.oidc?.rules ?? [];
    const digest = digestOf(rules);
    const { items } = await this.queries.list(
      { tenantId: PLATFORM_TENANT, event: 'role_mapping_changed', limit: 1 },
      null,
    );
    const last = items[0]?.details as { digest?: string; after?: unknown } | undefined;
    if (last ? last.digest === digest : rules.length === 0) return false;
    await this.audit.record([
      {
        event: 'role_mapping_changed',
        tenantId: null,
        actor: { type: 'system', id: 'configuration' },
        details: {
          outcome: 'success',
          source: 'auth.oidc.rules',
          before: last?.after ?? [],
          after: canonicalRules(rules),
          digest,
          ...(last?.digest ? { previousDigest: last.digest } : {}),
        },
      },
    ]);
    return true;
  }
}
