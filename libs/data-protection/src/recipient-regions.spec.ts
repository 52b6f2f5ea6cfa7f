import { describe, expect, it } from 'vitest';
import { DEFAULT_DATA_PROTECTION_OPTIONS } from './data-protection.options.js';
import { RecipientRegions } from './recipient-regions.js';
import { tenantDataProtectionSchema } from './tenant-data-protection.js';

const regions = new RecipientRegions({
  ...DEFAULT_DATA_PROTECTION_OPTIONS,
  modelProviders: {
    demo: { region: null, inProcess: true },
    qwen: { region: 'CN' },
    gpt: { region: 'US' },
    quiet: { region: null },
  },
});
regions.lookUpUpstreamsWith(async (_tenant, name) =>
  name === 'crm' ? 'SG' : name === 'bare' ? null : undefined,
);

const tenant = (recipients: Record<string, unknown> = {}, connectors: Record<string, unknown> = {}) => ({
  section: tenantDataProtectionSchema.parse({ recipients }),
  connectors: connectors as Record<string, Record<string, unknown>>,
});

describe('RecipientRegions', () => {
  it('reads the region from the record itself: connector block, upstream, model provider', async () => {
    expect(await regions.of('t', 'sap', tenant({}, { sap: { baseUrl: 'x', region: 'CN' } }))).toEqual({
      region: 'CN',
      source: 'connector',
      inProcess: false,
    });
    expect(await regions.of('t', 'crm', tenant())).toMatchObject({ region: 'SG', source: 'upstream' });
    expect(await regions.of('t', 'gpt', tenant())).toMatchObject({ region: 'US', source: 'model_provider' });
    // An imported tool's own upstream, as its implementation carries it: no lookup needed.
    expect(await regions.of('t', 'hr', tenant(), { name: 'hr', region: 'CN' })).toMatchObject({
      region: 'CN',
      source: 'upstream',
    });
  });

  it('falls back to dataProtection.recipients, and lets no declaration move a recipient home', async () => {
    expect(await regions.of('t', 'crm_eu', tenant({ crm_eu: { region: 'DE' } }))).toMatchObject({
      region: 'DE',
      source: 'recipients',
    });
    // Declared on the record without a region, home in the tenant file: home.
    expect(await regions.of('t', 'quiet', tenant({ quiet: { region: 'CN' } }))).toMatchObject({
      region: 'CN',
      source: 'recipients',
    });
    // Declared differently: the region outside mainland China counts, whichever place says it.
    expect(await regions.of('t', 'qwen', tenant({ qwen: { region: 'HK' } }))).toMatchObject({
      region: 'HK',
      source: 'recipients',
    });
    expect(
      await regions.of('t', 'sap', tenant({ sap: { region: 'CN' } }, { sap: { region: 'DE' } })),
    ).toMatchObject({ region: 'DE', source: 'connector' });
  });

  it('answers no region for a recipient nobody declares, and in-process for the demo planner', async () => {
    expect(await regions.of('t', 'bare', tenant())).toEqual({ region: null, source: null, inProcess: false });
    expect(await regions.of('t', 'nobody', tenant())).toEqual({
      region: null,
      source: null,
      inProcess: false,
    });
    expect(await regions.of('t', 'demo', tenant())).toMatchObject({ inProcess: true });
    // A malformed region in a connector block is no declaration.
    expect(await regions.of('t', 'sap', tenant({}, { sap: { region: 'de' } }))).toMatchObject({
      region: null,
    });
  });
});
