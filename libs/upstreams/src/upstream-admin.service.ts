import { Injectable, Logger } from '@nestjs/common';
import { AuditTrail, type AuditActor } from '@toolgate/audit';
import type {
  ImportUpstreamToolsBody,
  RegisterUpstreamBody,
  ReviewUpstreamToolBody,
} from '@toolgate/contract';
import { isTenantEnvName, tenantEnvNamespace } from '@toolgate/contract/rules';
import { isUniqueViolation } from '@toolgate/database';
import { Egress, egressErrorOf } from '@toolgate/egress';
import { BindingAdmin, TenantRepository } from '@toolgate/tenancy';
import { ErrorCode, ToolgateError, uuidv7 } from '@toolgate/toolkit';
import { DEFAULT_UPSTREAM_TIMEOUT_MS, IMPORTED_TOOL_NAME_PATTERN } from './constants.js';
import { UpstreamServerEntity } from './entities/upstream-server.entity.js';
import { UpstreamToolEntity } from './entities/upstream-tool.entity.js';
import { changedFields, FINGERPRINT_VERSION, fingerprintOf, pinnable } from './fingerprint.js';
import type { UpstreamToolDefinition } from './sources/tool-source.js';
import { listLive, refusedUrl } from './upstream-failures.js';
import { UpstreamConnections } from './upstream-connections.js';
import { UpstreamPinning } from './upstream-pinning.js';
import { contractProblems } from './upstream-tenant-tools.js';
import { toImportedView, toUpstreamView } from './upstream-views.js';
import { UpstreamRepository } from './upstream.repository.js';
import { MAX_TOOL_NAME_LENGTH, snakeName } from './openapi/tool-names.js';

/** Live tools fingerprinted between two yields to the event loop. */
const LIVE_VIEW_CHUNK = 50;

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

const invalid = (summary: string, path = '') =>
  new ToolgateError(ErrorCode.INVALID_INPUT, {
    params: { summary },
    details: { issues: [{ path, message: summary }] },
  });

/** A readable Toolgate name for an upstream tool: `<server>__<tool in snake_case>`, within the limit. */
export function defaultToolgateName(server: string, tool: string): string {
  return `${server}__${snakeName(tool, MAX_TOOL_NAME_LENGTH - server.length - 2, 't_')}`;
}

/**
 * The admin side of upstream tool sources: register, list, import (a binding change when bound),
 * refresh, and review quarantined definitions. Every change is audited on the tenant's chain.
 */
@Injectable()
export class UpstreamAdmin {
  private readonly logger = new Logger(UpstreamAdmin.name);

  constructor(
    private readonly repo: UpstreamRepository,
    private readonly tenants: TenantRepository,
    private readonly connections: UpstreamConnections,
    private readonly pinning: UpstreamPinning,
    private readonly bindings: BindingAdmin,
    private readonly audit: AuditTrail,
    private readonly egress: Egress,
  ) {}

  /**
   * Connects once to check the server, stores it, and answers its tools. Every refusal after the
   * tenant is known is in the trail too (`server_registration_failed`): an attempt to name another
   * tenant's secret or to reach inside the network is worth an auditor's eye.
   */
  async register(tenantId: string, body: RegisterUpstreamBody, actor: AuditActor) {
    await this.requireTenant(tenantId);
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
      throw invalid(
        `auth.secretEnv must name one of this tenant's environment variables: ${tenantEnvNamespace('upstream', tenantId)}<NAME> (upper-case letters, digits, _)`,
        'auth.secretEnv',
      );
    if (body.auth && RESERVED_HEADERS.has(body.auth.header.toLowerCase()))
      throw invalid(
        `auth.header "${body.auth.header}" is set by the protocol, not by an admin`,
        'auth.header',
      );
    if (body.baseUrl !== undefined && body.kind !== 'openapi')
      throw invalid('baseUrl is only for kind openapi (an MCP server is called at its url)', 'baseUrl');
    if (!this.connections.supports(body.kind))
      throw invalid(`upstream kind "${body.kind}" is not available in this build`, 'kind');
    if (await this.repo.serverByName(tenantId, body.name)) throw this.exists(body.name);
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
            },
          },
        ]);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw this.exists(body.name);
      throw err;
    }
    return { upstream: toUpstreamView(server, []), tools: await this.liveView(live, []) };
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

  async list(tenantId: string) {
    await this.requireTenant(tenantId);
    const tools = await this.repo.toolsOf(tenantId);
    return (await this.repo.serversOf(tenantId)).map((s) =>
      toUpstreamView(
        s,
        tools.filter((t) => t.serverId === s.id),
      ),
    );
  }

  async get(tenantId: string, name: string) {
    const server = await this.server(tenantId, name);
    const tools = await this.repo.toolsOfServer(tenantId, server.id);
    return { upstream: toUpstreamView(server, tools), imported: tools.map(toImportedView) };
  }

  /** Deletes the server and its imported tools; bindings naming them stop resolving them. */
  async remove(tenantId: string, name: string, actor: AuditActor): Promise<void> {
    const server = await this.server(tenantId, name);
    const tools = await this.repo.toolsOfServer(tenantId, server.id);
    await this.repo.run(async (em) => {
      await this.repo.deleteServer(em, tenantId, server.id);
      await this.audit.recordIn(em, [
        {
          event: 'upstream_changed',
          tenantId,
          actor,
          details: { kind: 'server_deleted', upstream: server.name, tools: tools.map((t) => t.toolgateName) },
        },
      ]);
    });
    await this.connections.drop(tenantId, server.id);
    this.pinning.changed(tenantId);
    await this.unbind(tenantId, new Set(tools.map((t) => t.toolgateName)), actor);
  }

  /** Takes deleted tools out of every binding naming them: binding changes with history and audit. */
  private async unbind(tenantId: string, names: ReadonlySet<string>, actor: AuditActor): Promise<void> {
    if (!names.size) return;
    for (const binding of await this.bindings.list(tenantId)) {
      const tools = binding.tools.filter((t) => !names.has(t.name));
      if (tools.length !== binding.tools.length)
        await this.bindings.replace(tenantId, binding.agentType, { version: binding.version, tools }, actor);
    }
  }

  /** The server's tools as it lists them now, each marked imported or not. */
  async liveTools(tenantId: string, name: string) {
    const server = await this.server(tenantId, name);
    const live = await listLive(await this.connections.clientFor(server));
    return await this.liveView(live, await this.repo.toolsOfServer(tenantId, server.id));
  }

  /** Imports chosen tools, pinned as listed now; binds them to `bindTo` through the binding admin. */
  async import(tenantId: string, name: string, body: ImportUpstreamToolsBody, actor: AuditActor) {
    const server = await this.server(tenantId, name);
    const live = new Map((await listLive(await this.connections.clientFor(server))).map((t) => [t.name, t]));
    const existing = await this.repo.toolsOfServer(tenantId, server.id);
    const now = new Date();
    const rows = body.tools.map((t, i) => {
      const def = live.get(t.name);
      if (!def) throw invalid(`the upstream has no tool "${t.name}"`, `tools.${i}.name`);
      if (
        existing.some((e) => e.upstreamName === t.name) ||
        body.tools.findIndex((o) => o.name === t.name) !== i
      )
        throw this.exists(`tool ${t.name} of ${server.name}`);
      const toolgateName = t.toolgateName ?? defaultToolgateName(server.name, t.name);
      // The server's name is the namespace: no import can take a registry tool's or another server's name.
      if (
        !toolgateName.startsWith(`${server.name}__`) ||
        !IMPORTED_TOOL_NAME_PATTERN.test(toolgateName) ||
        toolgateName.length > 64
      )
        throw invalid(
          `toolgateName "${toolgateName}" must be ${server.name}__<snake_case> and at most 64 characters`,
          `tools.${i}.toolgateName`,
        );
      const definition = pinnable(def);
      const problems = contractProblems({
        toolgateName,
        riskLevel: t.riskLevel,
        dataDomains: t.dataDomains ?? [],
        timeoutMs: t.timeoutMs ?? server.timeoutMs,
        definition,
      });
      if (problems.length) throw invalid(`tool "${t.name}": ${problems.join('; ')}`, `tools.${i}`);
      return Object.assign(new UpstreamToolEntity(), {
        tenantId,
        toolgateName,
        serverId: server.id,
        upstreamName: t.name,
        riskLevel: t.riskLevel,
        dataDomains: t.dataDomains ?? [],
        timeoutMs: t.timeoutMs ?? null,
        pinnedDefinition: definition,
        pinnedFingerprint: fingerprintOf(definition),
        fingerprintVersion: FINGERPRINT_VERSION,
        status: 'active' as const,
        pendingDefinition: null,
        pendingFingerprint: null,
        reviewedBy: null,
        reviewedAt: null,
        createdAt: now,
        updatedAt: now,
      });
    });
    try {
      await this.repo.run(async (em) => {
        await this.repo.insertTools(em, rows);
        await this.audit.recordIn(
          em,
          rows.map((r) => ({
            event: 'upstream_changed' as const,
            tenantId,
            actor,
            tool: r.toolgateName,
            riskLevel: r.riskLevel,
            details: {
              kind: 'tool_imported',
              upstream: server.name,
              upstreamTool: r.upstreamName,
              fingerprint: r.pinnedFingerprint,
              dataDomains: r.dataDomains,
            },
          })),
        );
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw this.exists(rows.map((r) => r.toolgateName).join(', '));
      throw err;
    }
    this.pinning.changed(tenantId);
    const boundTo = [];
    for (const agentType of body.bindTo ?? [])
      boundTo.push(await this.bind(tenantId, agentType, rows, actor));
    return { imported: rows.map(toImportedView), boundTo };
  }

  /** Adds the tools to an agent type's binding: a binding change with its version, history and audit. */
  private async bind(
    tenantId: string,
    agentType: string,
    rows: readonly UpstreamToolEntity[],
    actor: AuditActor,
  ) {
    const current = (await this.bindings.list(tenantId)).find((b) => b.agentType === agentType);
    const tools = [...(current?.tools ?? [])];
    for (const r of rows)
      if (!tools.some((t) => t.name === r.toolgateName)) tools.push({ name: r.toolgateName });
    const saved = await this.bindings.replace(
      tenantId,
      agentType,
      { version: current?.version ?? 0, tools },
      actor,
    );
    return { agentType, version: saved.version };
  }

  async refresh(tenantId: string, name: string, actor: AuditActor) {
    const server = await this.server(tenantId, name);
    return await this.pinning.refresh(server, actor);
  }

  /** Pinned against pending definition of one imported tool, with the fields that differ. */
  async diff(tenantId: string, name: string, tool: string) {
    const { row } = await this.tool(tenantId, name, tool);
    return {
      toolgateName: row.toolgateName,
      status: row.status,
      pinned: { fingerprint: row.pinnedFingerprint, definition: row.pinnedDefinition },
      pending:
        row.pendingDefinition && row.pendingFingerprint
          ? { fingerprint: row.pendingFingerprint, definition: row.pendingDefinition }
          : null,
      changedFields: row.pendingDefinition ? changedFields(row.pinnedDefinition, row.pendingDefinition) : [],
    };
  }

  /** Accept: the pending definition becomes the pinned one and the tool is callable again. Keep blocked: it stays quarantined. */
  async review(
    tenantId: string,
    name: string,
    tool: string,
    body: ReviewUpstreamToolBody,
    actor: AuditActor,
  ) {
    const { server, row } = await this.tool(tenantId, name, tool);
    if (row.status !== 'quarantined' || !row.pendingDefinition || !row.pendingFingerprint)
      throw invalid(`tool ${row.toolgateName} is ${row.status}, not quarantined: there is nothing to review`);
    if (body.fingerprint !== undefined && body.fingerprint !== row.pendingFingerprint)
      throw new ToolgateError(ErrorCode.VERSION_CONFLICT, {
        params: { currentVersion: row.pendingFingerprint },
        details: { pendingFingerprint: row.pendingFingerprint },
      });
    const accept = body.decision === 'accept';
    if (accept) {
      const problems = contractProblems({
        ...row,
        timeoutMs: row.timeoutMs ?? server.timeoutMs,
        definition: row.pendingDefinition,
      });
      if (problems.length) throw invalid(`the new definition cannot be a tool: ${problems.join('; ')}`);
    }
    const now = new Date();
    const change: Partial<UpstreamToolEntity> = accept
      ? {
          status: 'active',
          pinnedDefinition: row.pendingDefinition,
          pinnedFingerprint: row.pendingFingerprint,
          fingerprintVersion: FINGERPRINT_VERSION,
          pendingDefinition: null,
          pendingFingerprint: null,
          reviewedBy: actor.id,
          reviewedAt: now,
        }
      : { reviewedBy: actor.id, reviewedAt: now };
    const applied = await this.repo.run(async (em) => {
      if (!(await this.repo.updateTool(em, row, change))) return false;
      await this.audit.recordIn(em, [
        {
          event: 'upstream_changed',
          tenantId,
          actor,
          tool: row.toolgateName,
          riskLevel: row.riskLevel,
          details: {
            kind: accept ? 'tool_review_accepted' : 'tool_review_kept_blocked',
            upstream: server.name,
            upstreamTool: row.upstreamName,
            previousFingerprint: row.pinnedFingerprint,
            pendingFingerprint: row.pendingFingerprint,
            changedFields: changedFields(row.pinnedDefinition, row.pendingDefinition!),
          },
        },
      ]);
      return true;
    });
    if (!applied)
      throw new ToolgateError(ErrorCode.VERSION_CONFLICT, { params: { currentVersion: 'changed' } });
    this.pinning.changed(tenantId);
    return toImportedView(Object.assign(new UpstreamToolEntity(), row, change));
  }

  /**
   * Fingerprints cost ~0.1 ms each (canonical JSON + SHA-256): a source of hundreds of tools
   * yields to the event loop every LIVE_VIEW_CHUNK of them instead of holding it for tens of ms.
   */
  private async liveView(live: readonly UpstreamToolDefinition[], imported: readonly UpstreamToolEntity[]) {
    const byName = new Map(imported.map((r) => [r.upstreamName, r]));
    const view = [];
    for (const [i, def] of live.entries()) {
      if (i > 0 && i % LIVE_VIEW_CHUNK === 0) await new Promise((resolve) => setImmediate(resolve));
      const row = byName.get(def.name);
      view.push({
        definition: pinnable(def),
        fingerprint: fingerprintOf(def),
        imported: !!row,
        toolgateName: row?.toolgateName ?? null,
        status: row?.status ?? null,
      });
    }
    return view;
  }

  private async tool(tenantId: string, name: string, tool: string) {
    const server = await this.server(tenantId, name);
    const row = (await this.repo.toolsOfServer(tenantId, server.id)).find(
      (r) => r.upstreamName === tool || r.toolgateName === tool,
    );
    if (!row)
      throw new ToolgateError(ErrorCode.NOT_FOUND, {
        params: { resource: `tool ${tool} of upstream ${name}` },
      });
    return { server, row };
  }

  private async server(tenantId: string, name: string): Promise<UpstreamServerEntity> {
    await this.requireTenant(tenantId);
    const server = await this.repo.serverByName(tenantId, name);
    if (!server) throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `upstream ${name}` } });
    return server;
  }

  private async requireTenant(tenantId: string): Promise<void> {
    if (!(await this.tenants.findTenant(tenantId)))
      throw new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `tenant ${tenantId}` } });
  }

  private exists(what: string) {
    return new ToolgateError(ErrorCode.ALREADY_EXISTS, { params: { resource: `upstream ${what}` } });
  }
}
