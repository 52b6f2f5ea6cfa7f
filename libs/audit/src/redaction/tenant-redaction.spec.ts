import { describe, expect, it } from 'vitest';
import { DEFAULT_AUDIT_OPTIONS, type AuditOptions } from '../audit.options.js';
import { TenantRedaction, type AuditPolicySource, type RedactionSettings } from './tenant-redaction.js';

const options = {
  redactionCacheTtlMs: DEFAULT_AUDIT_OPTIONS.redactionCacheTtlMs,
  defaultRedaction: { mode: 'mask', patterns: ['mobile'] },
  fingerprintSecret: 'secret',
} as unknown as AuditOptions;

/** A policy source whose tenant appears (commits) when the test says so. */
function source(): AuditPolicySource & { reads: number; committed?: RedactionSettings } {
  return {
    reads: 0,
    committed: undefined,
    async redactionFor() {
      this.reads++;
      return this.committed ?? null;
    },
  };
}

describe('TenantRedaction', () => {
  it('uses the defaults for a tenant not visible yet, without caching them', async () => {
    const policy = source();
    const redaction = new TenantRedaction(options, policy);
    expect((await redaction.redactorFor('acme')).redactText('13812345678')).toBe('138****5678');

    policy.committed = { mode: 'fingerprint' };
    const own = (await redaction.redactorFor('acme')).redactText('13812345678');
    expect(own).not.toBe('138****5678');
    expect(own).not.toContain('13812345678');
  });

  it("caches a visible tenant's redactor", async () => {
    const policy = source();
    policy.committed = {};
    const redaction = new TenantRedaction(options, policy);
    await redaction.redactorFor('acme');
    await redaction.redactorFor('acme');
    expect(policy.reads).toBe(1);
  });
});
