import type { ModelRef } from './model-client.js';

/** An OpenAI-compatible endpoint (`config/toolgate.yaml` `models.providers.<name>`). */
export interface ModelProviderOptions {
  /** The API root, e.g. https://api.deepseek.com/v1 (the client adds /chat/completions). */
  readonly baseUrl: string;
  /** The key itself, already read from the environment; never logged, never in an error. */
  readonly apiKey?: string;
  /** Per attempt. */
  readonly timeoutMs: number;
  /** Retries of 429, 5xx and connection failures, with backoff: a model call has no side effect. */
  readonly maxRetries: number;
  /**
   * Where the provider processes what it is sent (ISO 3166-1 alpha-2, `CN` mainland China); absent:
   * not declared, outside mainland China for the cross-border guard (ADR 047).
   */
  readonly region?: string;
}

/** Settings of the models lib. */
export interface ModelsOptions {
  /** By name; `demo` is built in and cannot be configured. */
  readonly providers: Readonly<Record<string, ModelProviderOptions>>;
  /** The model of agent types that name none (TOOLGATE_MODEL); null: the demo planner. */
  readonly defaultModel: ModelRef | null;
}

/** The defaults of the settings file (`config/toolgate.yaml` shows them; a spec keeps the two equal). */
export const DEFAULT_MODELS_OPTIONS: Pick<ModelsOptions, 'providers'> = { providers: {} };

/** What a provider entry that says nothing gets (the file's comments show them). */
export const DEFAULT_PROVIDER_OPTIONS: Pick<ModelProviderOptions, 'timeoutMs' | 'maxRetries'> = {
  timeoutMs: 60_000,
  maxRetries: 2,
};

export const MODELS_OPTIONS = Symbol('MODELS_OPTIONS');
