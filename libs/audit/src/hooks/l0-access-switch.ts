import { Inject, Injectable, Optional } from '@nestjs/common';
import { RefreshingCache } from '@toolgate/database';
import { AUDIT_OPTIONS, type AuditOptions } from '../audit.options.js';
import { AUDIT_POLICY_SOURCE, type AuditPolicySource } from '../redaction/tenant-redaction.js';

/**
 * Whether a tenant records its L0 calls (`audit.l0Access` in its file, on unless it says false),
 * answered without a promise once known: the L0 path is synchronous (ADR 022) and must stay so.
 */
@Injectable()
export class L0AccessSwitch {
  private readonly answers: RefreshingCache<string, boolean>;

  constructor(
    @Inject(AUDIT_OPTIONS) options: AuditOptions,
    @Optional() @Inject(AUDIT_POLICY_SOURCE) private readonly source?: AuditPolicySource,
  ) {
    this.answers = new RefreshingCache((tenantId) => this.load(tenantId), {
      ttlMs: options.redactionCacheTtlMs,
      waitOnStaleMs: 0,
    });
  }

  /** True or false, or a promise of it the first time a tenant is asked. */
  recordsFor(tenantId: string): boolean | Promise<boolean> {
    const known = this.answers.get(tenantId);
    return known instanceof Promise ? known.then((v) => v !== false) : known !== false;
  }

  private async load(tenantId: string): Promise<boolean> {
    return this.source?.recordsL0Access ? this.source.recordsL0Access(tenantId) : true;
  }
}
