import { Inject, Injectable, Logger, type OnApplicationShutdown, Optional } from '@nestjs/common';
import { ErrorCode, ToolgateError } from '@toolgate/toolkit';
import { UPSTREAM_SECRET_ENV_PATTERN } from './constants.js';
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
}

/** Creates the client of one source kind. */
export type UpstreamClientFactory = (spec: UpstreamConnectionSpec) => Promise<UpstreamClient>;

/**
 * Extra source kinds (the OpenAPI source plugs in here: `{ openapi: (spec) => createOpenApiClient(...) }`).
 * Optional; MCP is built in.
 */
export const UPSTREAM_CLIENT_FACTORIES = Symbol('UPSTREAM_CLIENT_FACTORIES');

/** The auth header of a server, its value read from the environment now (never stored). */
export function headersOf(
  server: Pick<UpstreamServerEntity, 'authHeader' | 'authEnv'>,
): Record<string, string> {
  if (!server.authHeader || !server.authEnv) return {};
  // Checked again here: a row written before a rule change must not read an arbitrary variable.
  if (!UPSTREAM_SECRET_ENV_PATTERN.test(server.authEnv))
    throw new ToolgateError(ErrorCode.UPSTREAM_ERROR, {
      params: { message: `the secret variable ${server.authEnv} is outside the allowed prefix` },
    });
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
    @Optional()
    @Inject(UPSTREAM_CLIENT_FACTORIES)
    extra?: Partial<Record<UpstreamKind, UpstreamClientFactory>>,
  ) {
    this.factories = {
      mcp: (spec) =>
        createMcpClient({ url: spec.url, headers: spec.headers, onToolsChanged: spec.onToolsChanged }),
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
