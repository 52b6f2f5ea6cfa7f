import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Test } from '@nestjs/testing';
import { ConnectorRegistry, ToolkitModule } from '@toolgate/toolkit';
import { describe, expect, it } from 'vitest';
import { OpsToolsModule } from './ops/ops.module.js';
import { ErpToolsModule } from './erp/erp.module.js';
import { TOOL_PACKS } from './tool-packs.module.js';

const here = fileURLToPath(new URL('.', import.meta.url));
/** Folders of this lib that are not packs. */
const NOT_PACKS = new Set(['common', 'demo']);

describe('tool packs together', () => {
  it('register with their secret fields and check configurations, next to the ops pack', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ToolkitModule.forRoot({ defaultLocale: 'en' }), OpsToolsModule, ErpToolsModule],
    }).compile();
    await moduleRef.init();
    const registry = moduleRef.get(ConnectorRegistry);
    expect(registry.names()).toEqual(['ops_api', 'sap', 'yonyou_nc']);
    expect(registry.get('sap')!.definition.secretFields).toEqual(['password']);
    expect(registry.get('yonyou_nc')!.definition.secretFields).toEqual(['appSecret']);
    expect(registry.get('ops_api')!.definition.secretFields).toEqual(['token']);

    const sap = registry.get('sap')!.config;
    expect(
      sap.check({ baseUrl: 'https://sap.example.com', client: '100', username: 'U', password: 'p' }).ok,
    ).toBe(true);
    expect(
      sap.check({ baseUrl: 'https://sap.example.com', client: '1000', username: 'U', password: 'p' }).ok,
    ).toBe(false);
    expect(registry.get('ops_api')!.config.check({ baseUrl: 'ftp://ops', token: 't' }).ok).toBe(false);
    expect(registry.get('yonyou_nc')!.config.check({ baseUrl: 'http://127.0.0.1:1', appKey: 'k' }).ok).toBe(
      false,
    );
    await moduleRef.close();
  });
});

describe('the list of tool packs the gateway loads', () => {
  // The step a tool author could miss: a pack that no module imports registers nothing, and its
  // tools answer TOOL_NOT_FOUND. Every pack folder's module must be in TOOL_PACKS.
  const packs = readdirSync(here, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !NOT_PACKS.has(e.name))
    .map((e) => e.name);

  it.each(packs)('has the pack in %s/', async (pack) => {
    const file = join(here, pack, `${pack}.module.ts`);
    const exported = Object.values((await import(file)) as Record<string, unknown>);
    expect(
      exported.some((m) => (TOOL_PACKS as unknown[]).includes(m)),
      `add the module of ${pack}/${pack}.module.ts to TOOL_PACKS in libs/tool-packs/src/tool-packs.module.ts`,
    ).toBe(true);
  });
});
