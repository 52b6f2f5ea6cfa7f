// Every export is public API of @toolgate/models: the model providers an agent run talks to.
export { ModelError } from './model-client.js';
export type {
  ModelClient,
  ModelMessage,
  ModelRef,
  ModelTool,
  ModelToolCall,
  ModelTurn,
  ModelTurnRequest,
} from './model-client.js';
export { DEMO_PROVIDER } from './demo/demo-planner.js';
export { ModelProviders } from './model-providers.js';
export { ModelsModule } from './models.module.js';
export { DEFAULT_MODELS_OPTIONS, DEFAULT_PROVIDER_OPTIONS } from './models.options.js';
export type { ModelProviderOptions, ModelsOptions } from './models.options.js';
export { OpenAICompatibleClient } from './openai/openai-compatible.client.js';
