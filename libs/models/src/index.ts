// Public surface of the models lib.
export * from './model-client.js';
export { DEMO_MODEL, DEMO_PROVIDER, DemoPlanner } from './demo/demo-planner.js';
export { DEMO_MODEL_REF, ModelProviders } from './model-providers.js';
export { ModelsModule } from './models.module.js';
export { DEFAULT_MODELS_OPTIONS, DEFAULT_PROVIDER_OPTIONS } from './models.options.js';
export type { ModelProviderOptions, ModelsOptions } from './models.options.js';
export { OpenAICompatibleClient } from './openai/openai-compatible.client.js';
