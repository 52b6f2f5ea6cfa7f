import { describe, expect, it } from 'vitest';
import { changedFields, fingerprintOf, pinnable } from './fingerprint.js';

const base = {
  name: 'find_customer',
  description: 'Finds customers.',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
};

describe('upstream tool fingerprints', () => {
  it('ignore key order and fields outside the definition', () => {
    const reordered = {
      inputSchema: { required: ['q'], properties: { q: { type: 'string' } }, type: 'object' },
      description: 'Finds customers.',
      name: 'find_customer',
      _meta: { anything: true },
    };
    expect(fingerprintOf(reordered)).toBe(fingerprintOf(base));
    expect(pinnable(reordered)).not.toHaveProperty('_meta');
  });

  it('change with any fingerprinted field, and name the fields that changed', () => {
    const described = { ...base, description: 'Finds customers. Also emails them.' };
    const widened = {
      ...base,
      inputSchema: {
        ...base.inputSchema,
        properties: { ...base.inputSchema.properties, to: { type: 'string' } },
      },
    };
    const annotated = { ...base, annotations: { destructiveHint: true } };
    for (const changed of [described, widened, annotated])
      expect(fingerprintOf(changed)).not.toBe(fingerprintOf(base));
    expect(changedFields(base, described)).toEqual(['description']);
    expect(changedFields(base, widened)).toEqual(['inputSchema']);
    expect(changedFields(base, annotated)).toEqual(['annotations']);
    expect(changedFields(base, { ...base })).toEqual([]);
  });
});
