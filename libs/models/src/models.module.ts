import { ConfigurableModuleBuilder, Global, Module } from '@nestjs/common';
import { ModelProviders } from './model-providers.js';
import { MODELS_OPTIONS, type ModelsOptions } from './models.options.js';

const { ConfigurableModuleClass } = new ConfigurableModuleBuilder<ModelsOptions>({
  optionsInjectionToken: MODELS_OPTIONS,
})
  .setClassMethodName('forRoot')
  .build();

/** Language models for agent runs. `ModelsModule.forRoot(options)` (or `forRootAsync`). */
@Global()
@Module({ providers: [ModelProviders], exports: [ModelProviders] })
export class ModelsModule extends ConfigurableModuleClass {}
