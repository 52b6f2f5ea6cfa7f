import type { ModelClient, ModelRef } from '@toolgate/models';

/**
 * What runs need from the configured model providers (`ModelProviders` of @toolgate/models has
 * exactly this shape): the client of a provider, and the model of an agent type that names none.
 */
export interface RunModelSource {
  client(provider: string): ModelClient;
  resolve(ref: ModelRef | null): ModelRef;
}

/** The injection token of the `RunModelSource` (RunsModule binds it to `ModelProviders`). */
export const RUN_MODEL_SOURCE = Symbol('RUN_MODEL_SOURCE');
