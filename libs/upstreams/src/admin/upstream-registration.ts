import { Injectable, Logger } from '@nestjs/common';
import { AuditTrail, type AuditActor } from '@toolgate/audit';
import type { RegisterUpstreamBody } from '@toolgate/contract';
import { isTenantEnvName, tenantEnvNamespace } from '@toolgate/contract/rules';
import { isUniqueViolation } from '@toolgate/database';
import { Egress, egressErrorOf } from '@toolgate/egress';
import { ErrorCode, ToolgateError, uuidv7 } from '@toolgate/toolkit';
import { DEFAULT_UPSTREAM_TIMEOUT_MS } from '../constants.js';
import { UpstreamServerEntity } from '../entities/upstream-server.entity.js';
import type { UpstreamToolDefinition } from '../sources/tool-source.js';
import { UpstreamConnections } from '../upstream-connections.js';
import { alreadyExists, invalidRequest, listLive, refusedUrl } from '../upstream-failures.js';
import { toLiveView, toUpstreamView } from '../upstream-views.js';
import { UpstreamRepository } from '../upstream.repository.js';
import { UpstreamLookup } from './upstream-lookup.js';

/** Headers the transport itself sets; an auth header may not replace them. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-type',
  'content-length',
  'accept',
  'connection',
  'transfer-encoding',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
]);

/**
 * Registers an upstream tool source of a tenant: checked (its secret named in the tenant's
 * namespace, its URLs allowed by the egress policy, one connection that lists its tools) before it
 * is stored, with its audit event in the same transaction; a refusal is audited too.
 */
@Injectable()
export class UpstreamRegistration {
  private readonly logger = new Logger(UpstreamRegistration.name);

  constructor(
    private readonly repo: UpstreamRepository,
    private readonly lookup: UpstreamLookup,
    private readonly connections: UpstreamConnections,
    private readonly audit: AuditTrail,
    private readonly egress: Egress,
  ) {}

  /**
   * Connects once to check the server, stores it, and answers its tools. Every refusal after the
   * tenant is known is in the trail too (`server_registration_failed`): an attempt to name another
   * tenant's secret or to reach inside the network is worth an auditor's eye.
   */
  async register(tenantId: string, body: RegisterUpstreamBody, actor: AuditActor) {
    await this.lookup.requireTenant(tenantId);
    try {
      return await this.registerChecked(tenantId, body, actor);
    } catch (err) {
      // The refusal is the answer: a trail that cannot take its record is logged, not answered.
      await this.recordRefusal(tenantId, body, actor, err).catch((auditErr: unknown) =>
        this.logger.error(
          `tenant ${tenantId}: refused registration of ${body.name} not audited: ${String(auditErr)}`,
        ),
      );
      throw err;
    }
  }

  private async registerChecked(tenantId: string, body: RegisterUpstreamBody, actor: AuditActor) {
    if (body.auth && !isTenantEnvName('upstream', tenantId, body.auth.secretEnv))
      throw invalidRequest(
        `auth.secretEnv must name one of this tenant's environment variables: ${tenantEnvNamespace('upstream', tenantId)}<NAME> (upper-case letters, digits, _)`,
        'auth.secretEnv',
      );
    if (body.auth && RESERVED_HEADERS.has(body.auth.header.toLowerCase()))
      throw invalidRequest(
        `auth.header "${body.auth.header}" is set by the protocol, not by an admin`,
        'auth.header',
      );
    if (body.baseUrl !== undefined && body.kind !== 'openapi')
      throw invalidRequest(
        'baseUrl is only for kind openapi (an MCP server is called at its url)',
        'baseUrl',
      );
    if (!this.connections.supports(body.kind))
      throw invalidRequest(`upstream kind "${body.kind}" is not available in this build`, 'kind');
    if (await this.repo.serverByName(tenantId, body.name)) throw alreadyExists(body.name);
    // Both destinations before anything is sent (the document's fetch would carry the credential).
    await this.checkDestination(tenantId, body.url, 'url');
    if (body.baseUrl !== undefined) await this.checkDestination(tenantId, body.baseUrl, 'baseUrl');
    const now = new Date();
    const server = Object.assign(new UpstreamServerEntity(), {
      id: uuidv7(),
      tenantId,
      name: body.name,
      kind: body.kind,
      url: body.url,
      baseUrl: body.baseUrl ?? null,
      authHeader: body.auth?.header.toLowerCase() ?? null,
      authEnv: body.auth?.secretEnv ?? null,
      timeoutMs: body.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS,
      region: body.region ?? null,
      createdAt: now,
      updatedAt: now,
    });
    const probe = await this.connections.open(server);
    let live: UpstreamToolDefinition[];
    try {
      live = await listLive(probe);
    } finally {
      await probe.close();
    }
    try {
      await this.repo.run(async (em) => {
        await this.repo.insertServer(em, server);
        await this.audit.recordIn(em, [
          {
            event: 'upstream_changed',
            tenantId,
            actor,
            details: {
              kind: 'server_registered',
              upstream: server.name,
              sourceKind: server.kind,
              url: server.url,
              ...(server.baseUrl ? { baseUrl: server.baseUrl } : {}),
              region: server.region,
            },
          },
        ]);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw alreadyExists(body.name);
      throw err;
    }
    return { upstream: toUpstreamView(server, []), tools: await toLiveView(live, []) };
  }

  /** Refuses a URL the egress policy does not allow (ADR 026), before anything is sent to it. */
  private async checkDestination(tenantId: string, url: string, path: 'url' | 'baseUrl'): Promise<void> {
    try {
      await this.egress.check(url);
    } catch (err) {
      const egress = egressErrorOf(err);
      if (!egress) throw err;
      // The address and the range that refused it are for the platform's log, not the answer.
      this.logger.warn(`tenant ${tenantId}: upstream ${path} not used: ${egress.detail ?? egress.message}`);
      if (egress.failure === 'unresolvable')
        throw new ToolgateError(ErrorCode.UPSTREAM_ERROR, {
          params: { message: `the upstream cannot be used: ${egress.message}` },
          details: { failure: 'unreachable' },
        });
      throw refusedUrl('egress_denied', egress.message, path);
    }
  }

  /** `upstream_changed` `server_registration_failed`: what was asked and why it was refused (names, never secrets). */
  private async recordRefusal(tenantId: string, body: RegisterUpstreamBody, actor: AuditActor, err: unknown) {
    const refusal = err instanceof ToolgateError ? err : undefined;
    const failure = refusal?.details?.failure;
    await this.audit.record([
      {
        event: 'upstream_changed',
        tenantId,
        actor,
        details: {
          kind: 'server_registration_failed',
          upstream: body.name,
          sourceKind: body.kind,
          url: body.url,
          ...(body.baseUrl !== undefined ? { baseUrl: body.baseUrl } : {}),
          // The variable's name (never its value); a key named like a secret would be redacted.
          ...(body.auth ? { authVariable: body.auth.secretEnv } : {}),
          code: refusal?.code ?? ErrorCode.INTERNAL_ERROR,
          ...(typeof failure === 'string' ? { failure } : {}),
        },
      },
    ]);
  }
}
