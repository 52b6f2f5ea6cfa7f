import { Test } from '@nestjs/testing';
import { ConnectorRegistry, ToolkitModule } from '@toolgate/toolkit';
import { describe, expect, it } from 'vitest';
import { OpsToolsModule } from './ops/ops.module.js';
import { ErpToolsModule } from './erp/erp.module.js';

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
