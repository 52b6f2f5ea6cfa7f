import { Test } from '@nestjs/testing';
import { describe, expect, it } from 'vitest';
import { DemoPlanner } from './demo/demo-planner.js';
import { ModelError } from './model-client.js';
import { ModelProviders } from './model-providers.js';
import { ModelsModule } from './models.module.js';
import { DEFAULT_PROVIDER_OPTIONS } from './models.options.js';
import { OpenAICompatibleClient } from './openai/openai-compatible.client.js';

const deepseek = { baseUrl: 'https://api.deepseek.com/v1', apiKey: 'sk-x', ...DEFAULT_PROVIDER_OPTIONS };

describe('ModelProviders', () => {
  it('always has the demo planner and a client per configured provider', () => {
    const providers = new ModelProviders({ providers: { deepseek }, defaultModel: null });
    expect(providers.client('demo')).toBeInstanceOf(DemoPlanner);
    expect(providers.client('deepseek')).toBeInstanceOf(OpenAICompatibleClient);
    expect(() => providers.client('openai')).toThrow(
      new ModelError('MODEL_REJECTED', 'unknown model provider openai'),
    );
  });

  it('resolves a missing model to TOOLGATE_MODEL, else the demo planner', () => {
    const own = { provider: 'deepseek', model: 'deepseek-chat' };
    const demoOnly = new ModelProviders({ providers: {}, defaultModel: null });
    expect(demoOnly.resolve(null)).toEqual({ provider: 'demo', model: 'demo-planner' });
    expect(demoOnly.resolve(own)).toBe(own);
    const withDefault = new ModelProviders({ providers: { deepseek }, defaultModel: own });
    expect(withDefault.resolve(null)).toEqual(own);
  });

  it('describes the demo planner as offline and deterministic', () => {
    const providers = new ModelProviders({ providers: {}, defaultModel: null });
    expect(providers.describe({ provider: 'demo', model: 'demo-planner' })).toEqual({
      label: 'demo planner (offline, deterministic)',
      offline: true,
    });
    expect(providers.describe({ provider: 'deepseek', model: 'deepseek-chat' })).toEqual({
      label: 'deepseek/deepseek-chat',
      offline: false,
    });
  });
});

describe('ModelsModule', () => {
  it('provides ModelProviders to every module from forRoot options', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ModelsModule.forRoot({ providers: {}, defaultModel: null })],
    }).compile();
    expect(moduleRef.get(ModelProviders).resolve(null)).toEqual({ provider: 'demo', model: 'demo-planner' });
    await moduleRef.close();
  });
});
