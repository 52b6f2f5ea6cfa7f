import { describe, expect, it } from 'vitest';
import { effectiveCompliance, tenantComplianceSchema, tenantComplianceSection } from './tenant-compliance.js';

const FLOORS = { retentionDays: 180, processingRecordsDays: 1095 };
const problems = (platform: 'off' | 'dengbao3', compliance: unknown, file: Record<string, unknown> = {}) =>
  tenantComplianceSection(platform, FLOORS)
    .problems(tenantComplianceSchema.parse(compliance), { file })
    .map((p) => `${p.path.join('.')}: ${p.message}`);

describe('a tenant file’s compliance section (ADR 048)', () => {
  it('adds parts to the platform’s, never takes any away', () => {
    expect(effectiveCompliance('off', undefined)).toEqual({
      crossBorderGuard: false,
      retentionFloor: false,
      processingRecordsFloor: false,
    });
    expect(effectiveCompliance('off', { crossBorderGuard: true })).toMatchObject({
      crossBorderGuard: true,
      retentionFloor: false,
    });
    expect(Object.values(effectiveCompliance('off', { profile: 'dengbao3' }))).toEqual([true, true, true]);
    // Under the platform's profile a tenant's `false` (refused at save anyway) changes nothing.
    expect(Object.values(effectiveCompliance('dengbao3', { crossBorderGuard: false }))).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('refuses loosening at save, and says why', () => {
    expect(problems('dengbao3', { crossBorderGuard: true })).toEqual([]);
    expect(problems('dengbao3', { profile: 'dengbao3' })).toEqual([]);
    expect(problems('dengbao3', { profile: 'off' })[0]).toMatch(/^profile: .*never turn it off/);
    expect(problems('dengbao3', { retentionFloor: false })[0]).toMatch(
      /^retentionFloor: the platform's dengbao3 profile turns retentionFloor on for every tenant/,
    );
    expect(problems('off', { profile: 'dengbao3', crossBorderGuard: false })[0]).toMatch(
      /profile: dengbao3 in this file turns crossBorderGuard on/,
    );
    expect(problems('off', { crossBorderGuard: false })).toEqual([]);
    expect(problems('off', { retentionFloor: true }, { audit: { retentionDays: 30 } })).toEqual([
      "retentionFloor: keeps this tenant's trail at least 180 days (网络安全法 第二十一条): audit.retentionDays 30 is below it",
    ]);
    expect(problems('off', { retentionFloor: true }, { audit: { retentionDays: 365 } })).toEqual([]);
  });

  it('refuses the parts only the platform has, naming the platform setting', () => {
    for (const key of ['separatedDuties', 'appendOnly', 'cryptoSuite', 'adminRequests']) {
      const parsed = tenantComplianceSchema.safeParse({ [key]: true });
      expect(parsed.success).toBe(false);
      expect(parsed.error!.issues[0]).toMatchObject({
        path: [key],
        message: expect.stringMatching(/is platform-wide and cannot be set per tenant .*toolgate\.yaml$/),
      });
    }
    expect(tenantComplianceSchema.safeParse({ crossBorderGuard: 'yes' }).success).toBe(false);
    expect(tenantComplianceSchema.safeParse({ somethingElse: true }).success).toBe(false);
  });
});
