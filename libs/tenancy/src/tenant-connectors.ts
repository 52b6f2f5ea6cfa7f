import { Inject, Injectable, Logger } from '@nestjs/common';
import { RefreshingCache } from '@toolgate/database';
import {
  canonicalJson,
  ConnectorRegistry,
  ErrorCode,
  ToolgateError,
  type ConnectorResolver,
} from '@toolgate/toolkit';
import { ConfigVariables } from './config-variables.js';
import { expandVariables, MissingVariableError } from './config/variables.js';
import { TENANCY_OPTIONS, type TenancyOptions } from './tenancy.options.js';
import { TenantRepository } from './tenant.repository.js';

/**
 * Builds and caches each tenant's connector clients from its configuration: placeholders are
 * expanded at this point only, so secrets live in the environment and in the client, nowhere else.
 */
@Injectable()
export class TenantConnectors {
  private readonly logger = new Logger(TenantConnectors.name);
  private readonly resolvers: RefreshingCache<string, ConnectorResolver>;
  private readonly clients = new Map<string, { template: string; client: unknown }>();

  constructor(
    private readonly tenants: TenantRepository,
    private readonly registry: ConnectorRegistry,
    private readonly variables: ConfigVariables,
    @Inject(TENANCY_OPTIONS) options: TenancyOptions,
  ) {
    this.resolvers = new RefreshingCache(
      async (tenantId) => {
        const templates: Record<string, Record<string, unknown>> = (await this.tenants.findTenant(tenantId))
          ?.connectors ?? {};
        return (_tenant: string | null, name: string) => this.client(tenantId, name, templates[name]);
      },
      { ttlMs: options.bindingCacheTtlMs, waitOnStaleMs: 200 },
    );
  }

  /** A synchronous resolver for `ctx.connector(name)`, with the tenant's configuration loaded. */
  async forTenant(tenantId: string): Promise<ConnectorResolver> {
    return (await this.resolvers.get(tenantId))!;
  }

  private client(tenantId: string, name: string, template: Record<string, unknown> | undefined): unknown {
    const connector = this.registry.get(name);
    if (!template || !connector) return undefined;
    const key = `${tenantId}\u0000${name}`;
    const templateText = canonicalJson(template);
    const cached = this.clients.get(key);
    if (cached && cached.template === templateText) return cached.client;
    const client = connector.definition.create(this.configOf(tenantId, name, template));
    this.clients.set(key, { template: templateText, client });
    return client;
  }

  /** Expands and validates one connector configuration; problems never include the values. */
  configOf(tenantId: string, name: string, template: Record<string, unknown>): unknown {
    const connector = this.registry.get(name);
    if (!connector) throw this.misconfigured(tenantId, name, 'no tool pack provides this connector');
    let expanded: unknown;
    try {
      expanded = expandVariables(template, this.variables.lookup);
    } catch (err) {
      if (err instanceof MissingVariableError) throw this.misconfigured(tenantId, name, err.message);
      throw err;
    }
    const checked = connector.config.check(expanded);
    if (!checked.ok) {
      throw this.misconfigured(
        tenantId,
        name,
        checked.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.kind}`).join('; '),
      );
    }
    return checked.value;
  }

  private misconfigured(tenantId: string, name: string, why: string): ToolgateError {
    this.logger.error(`tenant ${tenantId}: connector ${name} is misconfigured: ${why}`);
    return new ToolgateError(ErrorCode.CONNECTOR_NOT_CONFIGURED, { params: { connector: name } });
  }
}
