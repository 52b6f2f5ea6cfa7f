import { createHmac } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { CallResultRedaction } from '@toolgate/calls';
import { RefreshingCache } from '@toolgate/database';
import { ToolRegistry } from '@toolgate/toolkit';
import { z } from 'zod';
import { AUDIT_OPTIONS, type AuditOptions } from '../audit.options.js';
import { Redactor, type RedactionPolicy } from './redactor.js';
import { storedEnvelope } from './stored-forms.js';
import { VALUE_PATTERNS } from './value-patterns.js';

/** The `audit.redaction` section of a tenant's settings. */
export const redactionSettingsSchema = z.strictObject({
  mode: z
    .enum(['mask', 'fingerprint'])
    .optional()
    .describe('`mask`: `138****5678`; `fingerprint`: keyed hash, equal values match'),
  patterns: z
    .array(z.enum(VALUE_PATTERNS))
    .optional()
    .describe('value patterns to redact; all four by default'),
});
export type RedactionSettings = z.infer<typeof redactionSettingsSchema>;

/** A tenant file's `audit:` section: the audit lib's per-tenant settings (ADR 031). */
export const tenantAuditSettingsSchema = z.strictObject({
  /** How this tenant's audit trail redacts values (mask or keyed fingerprint; which patterns). */
  redaction: redactionSettingsSchema.optional(),
  /** Agent runs' questions, answers and model text in the trail (redacted like inputs); off by default. */
  runText: z.boolean().optional(),
  /**
   * Read-only (L0) calls recorded as `accessed` events after they run (batched, never waited for);
   * on by default (issue 23).
   */
  l0Access: z
    .boolean()
    .optional()
    .describe('record read-only (L0) calls as `accessed` events, after they run; on by default'),
  /** Days the trail stays in the database once archived (ADR 037); never below the platform's floor. */
  retentionDays: z.number().int().min(0).max(36_500).optional(),
});
export type TenantAuditSettings = z.infer<typeof tenantAuditSettingsSchema>;

/** Where per-tenant audit policy comes from (implemented by the tenancy lib). */
export interface AuditPolicySource {
  /** The tenant's own settings (`{}` when it sets none); `null` when no such tenant is visible. */
  redactionFor(tenantId: string): Promise<RedactionSettings | null>;
  /** Whether the tenant records its L0 calls (`audit.l0Access`, true unless it says false). */
  recordsL0Access?(tenantId: string): Promise<boolean>;
}
export const AUDIT_POLICY_SOURCE = Symbol('AUDIT_POLICY_SOURCE');

/**
 * Each tenant's redactor: its policy from the tenant settings, its fingerprint key derived from
 * the platform secret, so equal values match within a tenant and never across tenants.
 */
@Injectable()
export class TenantRedaction implements CallResultRedaction {
  private readonly redactors: RefreshingCache<string, Redactor>;

  constructor(
    @Inject(AUDIT_OPTIONS) private readonly options: AuditOptions,
    @Optional() @Inject(AUDIT_POLICY_SOURCE) private readonly source?: AuditPolicySource,
    // The registry's tools give their output fields' classes; imported tools are redacted by value.
    @Optional() private readonly tools?: ToolRegistry,
  ) {
    this.redactors = new RefreshingCache((tenantId) => this.load(tenantId), {
      ttlMs: options.redactionCacheTtlMs,
      waitOnStaleMs: 200,
    });
  }

  async redactorFor(tenantId: string): Promise<Redactor> {
    return (await this.redactors.get(tenantId)) ?? this.build(tenantId, {});
  }

  /** {@link redactorFor} without a promise when the tenant's redactor is cached (L0 access records). */
  redactorNow(tenantId: string): Redactor | Promise<Redactor> {
    const cached = this.redactors.get(tenantId);
    return cached instanceof Promise ? this.redactorFor(tenantId) : (cached ?? this.build(tenantId, {}));
  }

  /**
   * An envelope as it may be stored once its call ended (idempotency records): redacted by the
   * tool's marked output fields and names option where the registry knows the tool, then capped.
   */
  async storedEnvelope(tenantId: string, tool: string | undefined, envelope: unknown): Promise<unknown> {
    const redactor = await this.redactorFor(tenantId);
    const contract = tool ? this.tools?.get(tool) : undefined;
    return storedEnvelope(redactor, envelope, contract);
  }

  /**
   * A tenant the source cannot see yet — its import is still in flight on another connection —
   * gets the defaults without caching them, so its own policy applies as soon as it commits.
   */
  private async load(tenantId: string): Promise<Redactor | undefined> {
    const own = this.source ? await this.source.redactionFor(tenantId) : {};
    return own === null ? undefined : this.build(tenantId, own);
  }

  private build(tenantId: string, own: RedactionSettings): Redactor {
    const policy: RedactionPolicy = {
      mode: own.mode ?? this.options.defaultRedaction.mode,
      patterns: own.patterns ?? this.options.defaultRedaction.patterns,
    };
    const key = createHmac('sha256', this.options.fingerprintSecret).update(`tenant:${tenantId}`).digest();
    return new Redactor(policy, key, this.options.storedPayloadMaxBytes);
  }
}
