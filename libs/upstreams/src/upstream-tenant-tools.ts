import { Injectable } from '@nestjs/common';
import type { BlockedTool, TenantTools, TenantToolSource } from '@toolgate/tenancy';
import {
  always,
  checkContract,
  ErrorCode,
  sha256Hex,
  ToolCallFailedError,
  ToolgateError,
  type RegisteredContract,
  type ToolContext,
  type ToolDeclaration,
} from '@toolgate/toolkit';
import { IMPORTED_TOOL_NAME_PATTERN } from './constants.js';
import type { UpstreamServerEntity } from './entities/upstream-server.entity.js';
import type { UpstreamToolEntity } from './entities/upstream-tool.entity.js';
import { UpstreamConnections } from './upstream-connections.js';
import type { UpstreamToolDefinition } from './sources/tool-source.js';
import { UpstreamRepository } from './upstream.repository.js';

/** What an imported tool is built from: its row's policy and a definition (pinned or pending). */
export interface ImportedToolSpec {
  readonly toolgateName: string;
  readonly riskLevel: UpstreamToolEntity['riskLevel'];
  readonly dataDomains: readonly string[];
  readonly timeoutMs: number;
  readonly definition: UpstreamToolDefinition;
}

/** The declaration of an imported tool: dynamic (JSON Schema input, Ajv), L3 forces approval. */
export function declarationOf(spec: ImportedToolSpec): ToolDeclaration {
  const def = spec.definition;
  return {
    name: spec.toolgateName,
    description: def.description.trim() || def.title || def.name,
    inputSchema: def.inputSchema,
    ...(def.outputSchema ? { outputSchema: def.outputSchema } : {}),
    dynamic: true,
    risk: { level: spec.riskLevel, dataDomains: [...spec.dataDomains] },
    timeoutMs: spec.timeoutMs,
    ...(spec.riskLevel === 'L3' ? { approval: always() } : {}),
  };
}

/** The problems that keep a definition from becoming a tool (an import or review refuses it). */
export function contractProblems(spec: ImportedToolSpec): string[] {
  const checked = checkContract(declarationOf(spec), { namePattern: IMPORTED_TOOL_NAME_PATTERN });
  return checked.ok ? [] : checked.problems;
}

const BLOCKS: Record<Exclude<UpstreamToolEntity['status'], 'active'>, BlockedTool> = {
  quarantined: { code: ErrorCode.TOOL_QUARANTINED, reason: 'definition_changed_upstream' },
  removed: { code: ErrorCode.TOOL_NOT_FOUND, reason: 'removed_upstream' },
};

/**
 * The tenant-scoped tools of the upstreams lib, as the binding resolver sees them: each imported
 * tool a contract built through the toolkit's own rules from its pinned definition, its body a
 * call to the upstream. Compiled contracts are kept while nothing they are built from changes.
 */
@Injectable()
export class UpstreamTenantTools implements TenantToolSource {
  private readonly compiled = new Map<string, RegisteredContract>();

  constructor(
    private readonly repo: UpstreamRepository,
    private readonly connections: UpstreamConnections,
  ) {}

  async toolsOf(tenantId: string): Promise<TenantTools> {
    const rows = await this.repo.toolsOf(tenantId);
    if (!rows.length) return { tools: new Map(), blocked: new Map() };
    const servers = new Map((await this.repo.serversOf(tenantId)).map((s) => [s.id, s]));
    const tools = new Map<string, RegisteredContract>();
    const blocked = new Map<string, BlockedTool>();
    for (const row of rows) {
      const server = servers.get(row.serverId);
      if (!server) continue;
      const contract = this.contractOf(server, row);
      if (contract) tools.set(row.toolgateName, contract);
      if (row.status !== 'active') blocked.set(row.toolgateName, BLOCKS[row.status]);
    }
    return { tools, blocked };
  }

  private contractOf(server: UpstreamServerEntity, row: UpstreamToolEntity): RegisteredContract | undefined {
    const timeoutMs = row.timeoutMs ?? server.timeoutMs;
    const key = [
      row.tenantId,
      row.toolgateName,
      server.id,
      server.updatedAt.getTime(),
      server.region ?? '',
      row.pinnedFingerprint,
      row.riskLevel,
      row.dataDomains.join(','),
      timeoutMs,
    ].join('\u0000');
    const cached = this.compiled.get(key);
    if (cached) return cached;
    const checked = checkContract(declarationOf({ ...row, timeoutMs, definition: row.pinnedDefinition }), {
      namePattern: IMPORTED_TOOL_NAME_PATTERN,
    });
    if (!checked.ok) return undefined;
    const contract: RegisteredContract = Object.freeze({
      ...checked.contract,
      implementations: new Map([
        [
          'default',
          {
            name: 'default',
            source: `upstream ${server.name} (${server.kind})`,
            definitionHash: sha256Hex(`${checked.contract.contractHash}:${row.pinnedFingerprint}`),
            // The call goes to this server: the cross-border guard reads its region (ADR 047).
            recipient: { name: server.name, region: server.region ?? null },
            execute: (input: unknown, ctx: ToolContext) => this.call(server, row, timeoutMs, input, ctx),
          },
        ],
      ]),
    });
    this.compiled.set(key, contract);
    return contract;
  }

  private async call(
    server: UpstreamServerEntity,
    row: UpstreamToolEntity,
    timeoutMs: number,
    input: unknown,
    ctx: ToolContext,
  ): Promise<unknown> {
    // The contract is the tenant's own; a call of another tenant must never reach its server.
    if (ctx.tenant?.id !== server.tenantId)
      throw new ToolgateError(ErrorCode.TOOL_NOT_FOUND, {
        params: { tool: row.toolgateName, agentType: ctx.agentType },
      });
    const client = await this.connections.clientFor(server);
    const outcome = await client.callTool(row.upstreamName, input, {
      signal: ctx.abortSignal,
      timeoutMs,
      idempotencyKey: ctx.idempotencyKey,
      callPlan: row.pinnedDefinition.callPlan,
    });
    if (!outcome.ok) throw new ToolCallFailedError(outcome.envelope);
    return outcome.data;
  }

  /** Drops compiled contracts of a tenant (its tools or servers changed). */
  forget(tenantId: string): void {
    for (const key of this.compiled.keys())
      if (key.startsWith(`${tenantId}\u0000`)) this.compiled.delete(key);
  }
}
