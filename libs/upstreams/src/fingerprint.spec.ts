import { canonicalJson, sha256Hex } from '@toolgate/toolkit';
import { describe, expect, it } from 'vitest';
import { changedFields, describedFingerprintOf, fingerprintOf, pinnable } from './fingerprint.js';
import type { UpstreamCallPlan } from './sources/tool-source.js';

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

  it('keep the scheme-1 fingerprint of a definition without a call plan (MCP tools are not re-pinned)', () => {
    const schemeOne = sha256Hex(
      canonicalJson({ ...base, title: null, outputSchema: null, annotations: null }),
    );
    expect(fingerprintOf(base)).toBe(schemeOne);
    expect(describedFingerprintOf({ ...base, callPlan: plan })).toBe(schemeOne);
  });

  it('change with every part of the call plan, and name the part', () => {
    const planned = { ...base, callPlan: plan };
    const moved: [Partial<UpstreamCallPlan>, string][] = [
      [{ method: 'PATCH' }, 'callPlan.method'],
      [{ path: '/danger/customers/{id}/erase' }, 'callPlan.path'],
      [{ baseUrl: 'https://crm.example/danger' }, 'callPlan.baseUrl'],
      [{ parameters: [{ ...plan.parameters[0]!, in: 'header' }] }, 'callPlan.parameters'],
      [{ parameters: [{ ...plan.parameters[0]!, explode: false }] }, 'callPlan.parameters'],
      [{ body: { ...plan.body!, contentType: 'application/merge-patch+json' } }, 'callPlan.body'],
    ];
    for (const [change, field] of moved) {
      const changed = { ...planned, callPlan: { ...plan, ...change } };
      expect(fingerprintOf(changed)).not.toBe(fingerprintOf(planned));
      expect(changedFields(planned, changed)).toEqual([field]);
    }
    expect(changedFields(base, planned)).toEqual(['callPlan']);
  });
});

const plan: UpstreamCallPlan = {
  method: 'POST',
  baseUrl: 'https://crm.example/api',
  path: '/customers/{id}',
  parameters: [
    { name: 'q', in: 'query', argName: 'q', required: true, style: 'form', explode: true, json: false },
  ],
  body: { argName: 'body', required: true, contentType: 'application/json' },
};
