import { Inject, Injectable, Logger, type OnApplicationShutdown, Optional } from '@nestjs/common';
import { isTenantEnvName, namespacedEnvName } from '@toolgate/contract/rules';
import { Egress, type EgressFetch, type EgressFetchOptions } from '@toolgate/egress';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import type { UpstreamKind, UpstreamServerEntity } from './entities/upstream-server.entity.js';
import { createMcpClient } from './mcp/mcp-upstream-client.js';
import type { UpstreamClient } from './sources/tool-source.js';

/** What a source's client is made from: where it is, and the headers (secret already read). */
export interface UpstreamConnectionSpec {
  readonly url: string;
  /** OpenAPI sources: where calls go, when the admin configured it. */
  readonly baseUrl?: string | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly onToolsChanged?: () => void;
  /** Every request to the source goes out through this: the platform's egress policy (ADR 026). */
  readonly fetchWith: (options: Pick<EgressFetchOptions, 'onTooLarge'>) => EgressFetch;
}

/** Creates the client of one source kind. */
export type UpstreamClientFactory = (spec: UpstreamConnectionSpec) => Promise<UpstreamClient>;

/**
 * Extra source kinds (the OpenAPI source plugs in here: `{ openapi: (spec) => createOpenApiClient(...) }`).
 * Optional; MCP is built in.
 */
export const UPSTREAM_CLIENT_FACTORIES = Symbol('UPSTREAM_CLIENT_FACTORIES');

/**
 * The auth header of a server, its value read from the environment now (never stored). Only a
 * variable of the server's tenant (`TOOLGATE_UPSTREAM_<TENANT>__*`) is read: checked again here,
 * so that a row written before the rule (or behind the gateway's back) cannot read another
 * tenant's secret, or a platform one.
 */
export function headersOf(
  server: Pick<UpstreamServerEntity, 'tenantId' | 'authHeader' | 'authEnv'>,
): Record<string, string> {
  if (!server.authHeader || !server.authEnv) return {};
  if (!isTenantEnvName('upstream', server.tenantId, server.authEnv)) {
    const rename = namespacedEnvName('upstream', server.tenantId, server.authEnv);
    throw new ToolgateError(ErrorCode.UPSTREAM_ERROR, {
      params: {
        message: `the secret variable ${server.authEnv} is not one of tenant ${server.tenantId}'s: a platform admin sets ${rename} on the gateway and the upstream is registered again with it`,
      },
      details: { failure: 'secret_namespace', secretEnv: rename },
    });
  }
  const value = process.env[server.authEnv];
  if (!value)
    throw new ToolgateError(ErrorCode.UPSTREAM_ERROR, {
      params: { message: `the secret variable ${server.authEnv} is not set on the gateway` },
    });
  return { [server.authHeader]: value };
}

/**
 * One connected client per (tenant, server) per process. Keys carry the tenant, so no session of
 * one tenant's server is ever handed to another tenant's call.
 */
@Injectable()
export class UpstreamConnections implements OnApplicationShutdown {
  private readonly logger = new Logger(UpstreamConnections.name);
  private readonly clients = new Map<string, Promise<UpstreamClient>>();
  private readonly factories: Readonly<Record<string, UpstreamClientFactory>>;
  /** Called with (tenantId, serverId) when a server says its tools changed. */
  onToolsChanged?: (tenantId: string, serverId: string) => void;

  constructor(
    private readonly egress: Egress,
    @Optional()
    @Inject(UPSTREAM_CLIENT_FACTORIES)
    extra?: Partial<Record<UpstreamKind, UpstreamClientFactory>>,
  ) {
    this.factories = {
      mcp: (spec) =>
        createMcpClient({
          url: spec.url,
          headers: spec.headers,
          onToolsChanged: spec.onToolsChanged,
          fetchWith: spec.fetchWith,
        }),
      ...extra,
    };
  }

  /** Whether this build can talk to sources of `kind`. */
  supports(kind: string): boolean {
    return kind in this.factories;
  }

  /** A client for a server not stored yet (registration checks it once, then closes it). */
  open(server: UpstreamServerEntity): Promise<UpstreamClient> {
    const factory = this.factories[server.kind];
    if (!factory)
      throw new ToolgateError(ErrorCode.INVALID_INPUT, {
        params: { summary: `upstream kind "${server.kind}" is not available in this build` },
      });
    return factory({
      url: server.url,
      baseUrl: server.baseUrl,
      headers: headersOf(server),
      timeoutMs: server.timeoutMs,
      onToolsChanged: () => this.onToolsChanged?.(server.tenantId, server.id),
      fetchWith: (options) => this.egress.fetchWith(options),
    });
  }

  /** The shared client of a stored server. */
  clientFor(server: UpstreamServerEntity): Promise<UpstreamClient> {
    const key = `${server.tenantId}\u0000${server.id}`;
    let client = this.clients.get(key);
    if (!client) {
      client = this.open(server);
      client.catch(() => this.clients.delete(key));
      this.clients.set(key, client);
    }
    return client;
  }

  /** Closes and forgets a server's client (deleted, or its settings changed). */
  async drop(tenantId: string, serverId: string): Promise<void> {
    const key = `${tenantId}\u0000${serverId}`;
    const client = this.clients.get(key);
    this.clients.delete(key);
    await client?.then((c) => c.close()).catch(() => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    const all = [...this.clients.values()];
    this.clients.clear();
    await Promise.all(
      all.map((c) => c.then((client) => client.close()).catch((err: Error) => this.logger.warn(err.message))),
    );
  }
}
