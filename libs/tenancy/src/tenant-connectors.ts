import { Injectable, Logger } from '@nestjs/common';
import {
  canonicalJson,
  ConnectorRegistry,
  ErrorCode,
  ToolgateError,
  type ConnectorResolver,
} from '@toolgate/toolkit';
import { BindingResolver } from './binding-resolver.js';
import type { TenantEntity } from './entities/tenant.entity.js';
import { ConfigVariables } from './config-variables.js';
import { expandVariables, ForbiddenVariableError, MissingVariableError } from './config/variables.js';

/**
 * The key of a connector's block in a tenant file that is the gateway's, not the connector's:
 * where the connector's backend processes data (ISO 3166-1 alpha-2, `CN` mainland China; ADR 047).
 * Taken out before the connector's own schema sees the block.
 */
export const CONNECTOR_REGION_KEY = 'region';

const REGION_PATTERN = /^[A-Z]{2}$/;

/** The region a tenant's connector block declares; null when it declares none (or none valid). */
export function connectorRegionOf(template: Record<string, unknown> | undefined): string | null {
  const region = template?.[CONNECTOR_REGION_KEY];
  return typeof region === 'string' && REGION_PATTERN.test(region) ? region : null;
}

/**
 * Builds and caches each tenant's connector clients from its configuration: placeholders are
 * expanded at this point only, so secrets live in the environment and in the client, nowhere else.
 */
@Injectable()
export class TenantConnectors {
  private readonly logger = new Logger(TenantConnectors.name);
  private readonly clients = new Map<
    string,
    { source: Record<string, unknown>; template: string; client: unknown }
  >();

  constructor(
    private readonly bindings: BindingResolver,
    private readonly registry: ConnectorRegistry,
    private readonly variables: ConfigVariables,
  ) {}

  /**
   * A synchronous resolver for `ctx.connector(name)`, with the tenant's configuration loaded
   * (from the tenant row the binding resolver caches).
   */
  async forTenant(tenantId: string): Promise<ConnectorResolver> {
    return this.forTenantRow(tenantId, await this.bindings.tenant(tenantId));
  }

  /** `forTenant` from a tenant row already in hand (one from `BindingResolver.cachedAgentType`). */
  forTenantRow(tenantId: string, tenant: TenantEntity | null): ConnectorResolver {
    const templates: Record<string, Record<string, unknown>> = tenant?.connectors ?? {};
    return (_tenant: string | null, name: string) => this.client(tenantId, name, templates[name]);
  }

  private client(tenantId: string, name: string, template: Record<string, unknown> | undefined): unknown {
    const connector = this.registry.get(name);
    if (!template || !connector) return undefined;
    const key = `${tenantId}\u0000${name}`;
    const cached = this.clients.get(key);
    // The same cached tenant row hands out the same template object: no serialization per call.
    if (cached?.source === template) return cached.client;
    const templateText = canonicalJson(template);
    if (cached && cached.template === templateText) {
      cached.source = template;
      return cached.client;
    }
    const client = connector.definition.create(this.configOf(tenantId, name, template));
    this.clients.set(key, { source: template, template: templateText, client });
    return client;
  }

  /** Expands and validates one connector configuration; CONNECTOR_NOT_CONFIGURED when it cannot. */
  configOf(tenantId: string, name: string, template: Record<string, unknown>): unknown {
    const checked = this.check(tenantId, name, template);
    if (!checked.ok) throw this.misconfigured(tenantId, name, checked.problem);
    return checked.value;
  }

  /**
   * One connector configuration, expanded with the tenant's own variables and checked against the
   * connector's schema. Problems name variables and fields, never their values.
   */
  check(
    tenantId: string,
    name: string,
    template: Record<string, unknown>,
  ): { ok: true; value: unknown } | { ok: false; problem: string } {
    const connector = this.registry.get(name);
    if (!connector) return { ok: false, problem: 'no tool pack provides this connector' };
    const { [CONNECTOR_REGION_KEY]: region, ...own } = template;
    if (region !== undefined && (typeof region !== 'string' || !REGION_PATTERN.test(region)))
      return {
        ok: false,
        problem: `${CONNECTOR_REGION_KEY}: an ISO 3166-1 alpha-2 code, CN for mainland China`,
      };
    let expanded: unknown;
    try {
      expanded = expandVariables(own, this.variables.lookupFor(tenantId));
    } catch (err) {
      if (err instanceof MissingVariableError || err instanceof ForbiddenVariableError)
        return { ok: false, problem: err.message };
      throw err;
    }
    const checked = connector.config.check(expanded);
    if (!checked.ok) {
      const problem = checked.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.kind}`).join('; ');
      return { ok: false, problem };
    }
    return { ok: true, value: checked.value };
  }

  private misconfigured(tenantId: string, name: string, why: string): ToolgateError {
    this.logger.error(`tenant ${tenantId}: connector ${name} is misconfigured: ${why}`);
    return new ToolgateError(ErrorCode.CONNECTOR_NOT_CONFIGURED, { params: { connector: name } });
  }
}
