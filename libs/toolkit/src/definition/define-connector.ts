import type { Callback, InferSchema, ToolSchema } from './tool-definition.js';

/**
 * A backend a tool talks to (an ops API, SAP, Yonyou NC). Each tenant configures its own instance
 * in `config/tenants/<tenant>.yaml` under `connectors.<name>`; the config is checked against
 * `configSchema` at boot, and a tool reaches the tenant's client with `ctx.connector(definition)`,
 * typed as whatever `create` returns.
 */
export interface ConnectorDefinition<TConfig = any, TClient = unknown> {
  /** snake_case; the key under `connectors:` in the tenant file. */
  readonly name: string;
  readonly description?: string;
  /** Zod schema of one tenant's configuration. */
  readonly configSchema: ToolSchema;
  /** Configuration fields that hold secrets: masked wherever a configuration is shown. */
  readonly secretFields?: readonly string[];
  /**
   * Configuration fields that say where the connector sends its requests (and its credentials).
   * Only a platform admin may change them, like the secrets; fields named like a URL or host, and
   * values that hold a URL, count as endpoints too.
   */
  readonly endpointFields?: readonly string[];
  /** Builds the client for one tenant's (validated) configuration. */
  readonly create: Callback<[config: TConfig], TClient>;
}

/**
 * Declares a connector. An identity function, for type inference: `create` receives the type of
 * `configSchema`, and `ctx.connector(theDefinition)` returns the type `create` returns.
 * @example
 * export const opsApiConnector = defineConnector({
 *   name: 'ops_api',
 *   configSchema: z.object({ baseUrl: z.url(), token: z.string() }),
 *   secretFields: ['token'],
 *   create: (config) => new OpsApiClient(config),
 * });
 * // in a tool: ctx.connector(opsApiConnector) is an OpsApiClient
 */
export function defineConnector<S extends ToolSchema, TClient>(
  definition: Omit<ConnectorDefinition<InferSchema<S>, TClient>, 'configSchema'> & {
    readonly configSchema: S;
  },
): ConnectorDefinition<InferSchema<S>, TClient> {
  return definition;
}
