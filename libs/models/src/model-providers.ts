import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DEMO_MODEL, DEMO_PROVIDER, DemoPlanner } from './demo/demo-planner.js';
import { ModelError, type ModelClient, type ModelRef } from './model-client.js';
import { MODELS_OPTIONS, type ModelsOptions } from './models.options.js';
import { OpenAICompatibleClient } from './openai/openai-compatible.client.js';

/** The model of agent types that name none when TOOLGATE_MODEL is not set. */
export const DEMO_MODEL_REF: ModelRef = { provider: DEMO_PROVIDER, model: DEMO_MODEL };

/** The configured model providers, plus the built-in offline demo planner. */
@Injectable()
export class ModelProviders implements OnApplicationBootstrap {
  private readonly logger = new Logger(ModelProviders.name);
  private readonly clients = new Map<string, ModelClient>();

  constructor(@Inject(MODELS_OPTIONS) private readonly options: ModelsOptions) {
    this.clients.set(DEMO_PROVIDER, new DemoPlanner());
    for (const [name, provider] of Object.entries(options.providers)) {
      if (name !== DEMO_PROVIDER) this.clients.set(name, new OpenAICompatibleClient(name, provider));
    }
  }

  /** Says at start which models agents can use (names and hosts: a URL may carry credentials, and keys are never logged). */
  onApplicationBootstrap(): void {
    const configured = Object.entries(this.options.providers).map(
      ([name, p]) => `${name} (${new URL(p.baseUrl).host})`,
    );
    const fallback = this.resolve(null);
    this.logger.log(
      `model providers: ${[`${DEMO_PROVIDER} (built in, offline)`, ...configured].join(', ')}; ` +
        `agent types without a model use ${fallback.provider}/${fallback.model}`,
    );
  }

  /** The client of a provider; MODEL_REJECTED when no provider has that name. */
  client(provider: string): ModelClient {
    const client = this.clients.get(provider);
    if (!client) throw new ModelError('MODEL_REJECTED', `unknown model provider ${provider}`);
    return client;
  }

  /** How to show a model to people: the demo planner says it is offline and deterministic. */
  describe(ref: ModelRef): { label: string; offline: boolean } {
    return ref.provider === DEMO_PROVIDER
      ? { label: 'demo planner (offline, deterministic)', offline: true }
      : { label: `${ref.provider}/${ref.model}`, offline: false };
  }

  /** The model an agent type uses: its own, else TOOLGATE_MODEL, else the demo planner. */
  resolve(ref: ModelRef | null): ModelRef {
    return ref ?? this.options.defaultModel ?? DEMO_MODEL_REF;
  }
}
