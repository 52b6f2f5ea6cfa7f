import type { ModelProviderRegion } from '@toolgate/data-protection';
import {
  DEFAULT_PROVIDER_OPTIONS,
  DEMO_PROVIDER,
  type ModelProviderOptions,
  type ModelRef,
  type ModelsOptions,
} from '@toolgate/models';
import { expandVariables } from '@toolgate/tenancy';
import { FILE_DEFAULTS } from './file-defaults.js';
import { SettingsError, type PlatformFile } from './platform-file.js';

/** The environment shortcuts for one provider, already checked by the settings' env schema. */
export interface ModelEnvironment {
  readonly TOOLGATE_MODEL_BASE_URL?: string;
  readonly TOOLGATE_MODEL_API_KEY?: string;
  readonly TOOLGATE_MODEL_REGION?: string;
  readonly TOOLGATE_MODEL?: string;
}

/** The provider TOOLGATE_MODEL_BASE_URL and TOOLGATE_MODEL_API_KEY define. */
const ENV_PROVIDER = 'default';

/**
 * `models` of the settings file plus the environment shortcuts. `${NAME}` keys are read from the
 * environment here, once, the way tenant files' placeholders are; the key never appears in an error.
 */
export function modelsSettings(
  file: PlatformFile['models'],
  shortcuts: ModelEnvironment,
  env: NodeJS.ProcessEnv,
): ModelsOptions {
  const lookup = (name: string) => env[name] || undefined;
  const providers: Record<string, ModelProviderOptions> = {};
  for (const [name, provider] of Object.entries(file?.providers ?? FILE_DEFAULTS.models.providers)) {
    const { apiKey, ...rest } = provider;
    providers[name] = {
      ...DEFAULT_PROVIDER_OPTIONS,
      ...rest,
      ...(apiKey ? { apiKey: readKey(`models.providers.${name}.apiKey`, apiKey, lookup) } : {}),
    };
  }
  if (shortcuts.TOOLGATE_MODEL_BASE_URL) {
    providers[ENV_PROVIDER] = {
      ...DEFAULT_PROVIDER_OPTIONS,
      ...providers[ENV_PROVIDER],
      baseUrl: shortcuts.TOOLGATE_MODEL_BASE_URL,
      ...(shortcuts.TOOLGATE_MODEL_API_KEY ? { apiKey: shortcuts.TOOLGATE_MODEL_API_KEY } : {}),
      ...(shortcuts.TOOLGATE_MODEL_REGION ? { region: shortcuts.TOOLGATE_MODEL_REGION } : {}),
    };
  } else if (shortcuts.TOOLGATE_MODEL_API_KEY) {
    throw new SettingsError('TOOLGATE_MODEL_API_KEY is set without TOOLGATE_MODEL_BASE_URL');
  } else if (shortcuts.TOOLGATE_MODEL_REGION) {
    throw new SettingsError('TOOLGATE_MODEL_REGION is set without TOOLGATE_MODEL_BASE_URL');
  }
  return { providers, defaultModel: defaultModel(shortcuts.TOOLGATE_MODEL, providers) };
}

function readKey(path: string, placeholder: string, lookup: (name: string) => string | undefined): string {
  try {
    return expandVariables(placeholder, lookup);
  } catch (error) {
    throw new SettingsError(`${path}: ${(error as Error).message}`);
  }
}

/** TOOLGATE_MODEL is `provider/model`; the model may itself hold slashes (Qwen/Qwen2.5-72B). */
function defaultModel(
  value: string | undefined,
  providers: Record<string, ModelProviderOptions>,
): ModelRef | null {
  if (!value) return null;
  const slash = value.indexOf('/');
  const ref = { provider: value.slice(0, slash), model: value.slice(slash + 1) };
  if (ref.provider !== 'demo' && !Object.hasOwn(providers, ref.provider)) {
    throw new SettingsError(
      `TOOLGATE_MODEL names provider ${ref.provider}, which is neither demo nor in models.providers (nor TOOLGATE_MODEL_BASE_URL's "${ENV_PROVIDER}")`,
    );
  }
  return ref;
}

/**
 * The model providers as the cross-border guard of agent runs sees them (ADR 047): each configured
 * one with the region it declares, and the built-in demo planner, which sends nothing anywhere.
 */
export function modelProviderRegions(models: ModelsOptions): Record<string, ModelProviderRegion> {
  const regions: Record<string, ModelProviderRegion> = { [DEMO_PROVIDER]: { region: null, inProcess: true } };
  for (const [name, p] of Object.entries(models.providers)) regions[name] = { region: p.region ?? null };
  return regions;
}
