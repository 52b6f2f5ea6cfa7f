import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelProviderRegions } from './model-settings.js';
import { loadSettings } from './settings.js';

const KEY = 'sk-test-0123456789abcdef';

function settingsWith(yaml: string, env: NodeJS.ProcessEnv = {}) {
  const configDir = mkdtempSync(join(tmpdir(), 'tg-models-'));
  writeFileSync(join(configDir, 'toolgate.yaml'), yaml);
  return loadSettings({
    TOOLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'tg-models-data-')),
    TOOLGATE_CONFIG_DIR: configDir,
    ...env,
  });
}

const DEEPSEEK = `models:
  providers:
    deepseek:
      baseUrl: https://api.deepseek.com/v1
      apiKey: \${DEEPSEEK_API_KEY}
      maxRetries: 1
`;

describe('models settings', () => {
  it('has no provider but the built-in demo by default and no default model', () => {
    expect(settingsWith('{}').models).toEqual({ providers: {}, defaultModel: null });
  });

  it('reads a provider key from the environment variable the file names, with the provider defaults', () => {
    expect(settingsWith(DEEPSEEK, { DEEPSEEK_API_KEY: KEY }).models.providers).toEqual({
      deepseek: { baseUrl: 'https://api.deepseek.com/v1', apiKey: KEY, timeoutMs: 60_000, maxRetries: 1 },
    });
  });

  it('refuses a key written in the file, a missing variable and the reserved name demo, never echoing a key', () => {
    const literal = () => settingsWith(DEEPSEEK.replace('${DEEPSEEK_API_KEY}', KEY));
    expect(literal).toThrow(/models\.providers\.deepseek\.apiKey/);
    expect(literal).not.toThrow(new RegExp(KEY));
    expect(() => settingsWith(DEEPSEEK)).toThrow(/DEEPSEEK_API_KEY/);
    expect(() => settingsWith(DEEPSEEK.replace('deepseek:', 'demo:'), { DEEPSEEK_API_KEY: KEY })).toThrow(
      /built-in demo planner/,
    );
  });

  it('takes a provider named default and the default model from the environment shortcuts', () => {
    const models = settingsWith('{}', {
      TOOLGATE_MODEL_BASE_URL: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
      TOOLGATE_MODEL_API_KEY: KEY,
      TOOLGATE_MODEL: 'default/Qwen/qwen-plus',
    }).models;
    expect(models).toEqual({
      providers: {
        default: {
          baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
          apiKey: KEY,
          timeoutMs: 60_000,
          maxRetries: 2,
        },
      },
      defaultModel: { provider: 'default', model: 'Qwen/qwen-plus' },
    });
    expect(settingsWith('{}', { TOOLGATE_MODEL: 'demo/demo-planner' }).models.defaultModel).toEqual({
      provider: 'demo',
      model: 'demo-planner',
    });
  });

  it('fails at start when TOOLGATE_MODEL names an unknown provider or is not provider/model', () => {
    expect(() => settingsWith('{}', { TOOLGATE_MODEL: 'openai/gpt-4o' })).toThrow(/provider openai/);
    expect(() => settingsWith('{}', { TOOLGATE_MODEL: 'gpt-4o' })).toThrow(/TOOLGATE_MODEL/);
    expect(() => settingsWith('{}', { TOOLGATE_MODEL_API_KEY: KEY })).toThrow(/TOOLGATE_MODEL_BASE_URL/);
  });

  it('takes each provider’s region (ADR 047), the shortcut’s from TOOLGATE_MODEL_REGION, and the demo as in-process', () => {
    const settings = settingsWith(DEEPSEEK.replace('maxRetries: 1', 'region: CN'), {
      DEEPSEEK_API_KEY: KEY,
      TOOLGATE_MODEL_BASE_URL: 'https://api.openai.com/v1',
      TOOLGATE_MODEL_REGION: 'US',
    });
    expect(settings.models.providers.deepseek?.region).toBe('CN');
    expect(settings.models.providers.default?.region).toBe('US');
    expect(modelProviderRegions(settings.models)).toEqual({
      demo: { region: null, inProcess: true },
      deepseek: { region: 'CN' },
      default: { region: 'US' },
    });
    expect(() =>
      settingsWith(DEEPSEEK.replace('maxRetries: 1', 'region: cn'), { DEEPSEEK_API_KEY: KEY }),
    ).toThrow(/ISO 3166-1 alpha-2/);
    expect(() => settingsWith('{}', { TOOLGATE_MODEL_REGION: 'US' })).toThrow(
      /without TOOLGATE_MODEL_BASE_URL/,
    );
  });

  it('keeps processing records 3 years at least under the dengbao3 profile', () => {
    expect(settingsWith('{}').compliance.processingRecordsDays).toBe(1095);
    const short = 'compliance:\n  processingRecordsDays: 400\n';
    expect(settingsWith(short).compliance.processingRecordsDays).toBe(400);
    expect(() => settingsWith(short, { TOOLGATE_COMPLIANCE_PROFILE: 'dengbao3' })).toThrow(
      /processingRecordsDays is 400: .* at least 1095 days/,
    );
  });
});
