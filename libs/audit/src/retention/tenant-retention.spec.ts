import { describe, expect, it } from 'vitest';
import { tenantAuditSection } from './tenant-retention.js';

describe('a tenant file’s audit.retentionDays', () => {
  it('is refused below the platform floor, with the path and the floor named', () => {
    const section = tenantAuditSection(180);
    expect(section.problems({ retentionDays: 90 })).toEqual([
      {
        path: ['retentionDays'],
        message: expect.stringMatching(/^90 days is below the platform's floor of 180 days/),
      },
    ]);
    expect(section.problems({ retentionDays: 180 })).toEqual([]);
    expect(section.problems({})).toEqual([]);
  });

  it('is one section per floor, so settings read twice compare equal', () => {
    expect(tenantAuditSection(30)).toBe(tenantAuditSection(30));
    expect(tenantAuditSection(30)).not.toBe(tenantAuditSection(180));
  });
});
