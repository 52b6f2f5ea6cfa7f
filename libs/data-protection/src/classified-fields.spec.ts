import { describe, expect, it } from 'vitest';
import { hasValuesAt } from './classified-fields.js';
import { isMainlandChina, tenantDataProtectionSchema } from './tenant-data-protection.js';

describe('hasValuesAt', () => {
  it('finds a value at a path, through arrays and records, and not a null or absent one', () => {
    expect(hasValuesAt({ idCard: 'x' }, [['idCard']])).toBe(true);
    expect(hasValuesAt({ idCard: null }, [['idCard']])).toBe(false);
    expect(hasValuesAt({ other: 1 }, [['idCard']])).toBe(false);
    expect(hasValuesAt({ people: [{ id: null }, { id: '1' }] }, [['people', '*', 'id']])).toBe(true);
    expect(hasValuesAt({ people: [] }, [['people', '*', 'id']])).toBe(false);
    expect(hasValuesAt({ byName: { a: { phone: '1' } } }, [['byName', '*', 'phone']])).toBe(true);
    expect(hasValuesAt({ idCard: '' }, [['idCard']])).toBe(true);
    expect(hasValuesAt('text', [['idCard']])).toBe(false);
    expect(hasValuesAt({ a: 1 }, [])).toBe(false);
  });
});

describe('the dataProtection section', () => {
  it('takes recipients with an ISO region and records with a PIPL legal basis', () => {
    const parsed = tenantDataProtectionSchema.parse({
      recipients: { crm_eu: { region: 'DE', crossBorder: { basis: 'standard_contract' } } },
      records: [
        { tool: 't', purpose: 'p', categories: ['contact'], recipient: 'crm_eu', legalBasis: 'consent' },
      ],
    });
    expect(parsed.records).toHaveLength(1);
    expect(tenantDataProtectionSchema.parse({})).toEqual({ recipients: {}, records: [] });
    expect(tenantDataProtectionSchema.safeParse({ recipients: { x: { region: 'cn' } } }).success).toBe(false);
    expect(
      tenantDataProtectionSchema.safeParse({
        recipients: { x: { region: 'US', crossBorder: { basis: 'trust_me' } } },
      }).success,
    ).toBe(false);
  });

  it('counts only CN as mainland China (HK, MO, TW and undeclared regions are outside it)', () => {
    expect(isMainlandChina('CN')).toBe(true);
    for (const r of ['HK', 'MO', 'TW', 'SG', undefined]) expect(isMainlandChina(r)).toBe(false);
  });
});
