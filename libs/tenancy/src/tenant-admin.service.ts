import { Inject, Injectable } from '@nestjs/common';
import { AuditTrail, type AuditActor } from '@toolgate/audit';
import type { ImportResult, Locale, TenantDetail, TenantView } from '@toolgate/contract';
import { canonicalJson, ConnectorRegistry, ErrorCode, ToolgateError } from '@toolgate/toolkit';
import { storedRunSettings } from './agent-run-settings.js';
import { BindingAdmin, toBindingView } from './binding-admin.service.js';
import { BindingResolver } from './binding-resolver.js';
import { exportTenantFile } from './config/tenant-file.exporter.js';
import { parseTenantFile, TenantConfigError } from './config/tenant-file.loader.js';
import { runSettingsOf, type TenantFile } from './config/tenant-file.schema.js';
import type { TenantEntity } from './entities/tenant.entity.js';
import { sharedVariableNamespace, tenantVariablePrefix } from './config/tenant-variables.js';
import { TenantChange } from './tenant-change.js';
import { TenantConnectors } from './tenant-connectors.js';
import { TenantFileImports } from './tenant-file-imports.js';
import { settingsOf } from './config/tenant-sections.js';
import { TenantRepository } from './tenant.repository.js';
import { TENANCY_OPTIONS, type TenancyOptions } from './tenancy.options.js';

/** A tenant as the admin API shows it: never a connector secret, only the placeholders. */
export function toTenantView(t: TenantEntity) {
  return {
    id: t.id,
    name: t.name,
    // Validated on the way in (tenant files and the admin API accept the contract's locales only).
    locale: t.locale as Locale | null,
    demo: t.demo,
    connectors: Object.keys(t.connectors ?? {}),
    settings: t.settings,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  } satisfies TenantView;
}

const invalid = (problems: readonly string[]) =>
  new ToolgateError(ErrorCode.INVALID_INPUT, {
    params: { summary: problems.join('; ') },
    details: { issues: problems.map((message) => ({ path: '', message })) },
  });

const notFound = (id: string) =>
  new ToolgateError(ErrorCode.NOT_FOUND, { params: { resource: `tenant ${id}` } });

/**
 * Agent types in an order that saves each one's sub-agents before it, so every save finds the
 * agent types it delegates to (the file was checked to have no delegation cycle); file order
 * otherwise.
 */
function subAgentsFirst(
  agentTypes: ReadonlyMap<string, { run: { subAgents: readonly string[] } }>,
): string[] {
  const ordered: string[] = [];
  const visit = (agentType: string, path: ReadonlySet<string>) => {
    if (ordered.includes(agentType) || path.has(agentType) || !agentTypes.has(agentType)) return;
    for (const sub of agentTypes.get(agentType)!.run.subAgents) visit(sub, new Set([...path, agentType]));
    ordered.push(agentType);
  };
  for (const agentType of agentTypes.keys()) visit(agentType, new Set());
  return ordered;
}

/** Tenants from the admin API: list, create, detail, and YAML export/import. */
@Injectable()
export class TenantAdmin {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly bindings: BindingAdmin,
    private readonly resolver: BindingResolver,
    private readonly audit: AuditTrail,
    private readonly connectorRegistry: ConnectorRegistry,
    private readonly tenantConnectors: TenantConnectors,
    @Inject(TENANCY_OPTIONS) private readonly options: TenancyOptions,
    private readonly fileImports: TenantFileImports,
  ) {}

  async list(scope: string | null) {
    const all = await this.tenants.listTenants();
    return all.filter((t) => scope === null || t.id === scope).map(toTenantView);
  }

  async get(id: string) {
    const tenant = await this.tenants.findTenant(id);
    if (!tenant) throw notFound(id);
    return {
      ...toTenantView(tenant),
      agentTypes: (await this.tenants.bindingsOf(id)).map(toBindingView),
    } satisfies TenantDetail;
  }

  async create(input: { id: string; name: string; locale?: 'zh-CN' | 'en' }, actor: AuditActor) {
    const sharing = sharedVariableNamespace(
      input.id,
      (await this.tenants.listTenants()).map((t) => t.id),
    );
    if (sharing) {
      throw invalid([
        `tenant "${input.id}" would share the variables ${tenantVariablePrefix(input.id)}* with tenant "${sharing}"`,
      ]);
    }
    const created = await this.tenants.createTenant(
      {
        id: input.id,
        name: input.name,
        locale: input.locale ?? null,
        demo: false,
        connectors: {},
        settings: {},
      },
      (em) =>
        this.audit.recordIn(em, [
          {
            event: 'tenant_created',
            tenantId: input.id,
            actor,
            details: { name: input.name, locale: input.locale ?? null },
          },
        ]),
    );
    if (!created)
      throw new ToolgateError(ErrorCode.ALREADY_EXISTS, { params: { resource: `tenant ${input.id}` } });
    return this.get(input.id);
  }

  private parse(id: string, text: string): TenantFile {
    let file: TenantFile;
    try {
      // Within the platform's ceilings, whoever imports: a platform admin raises the ceiling instead.
      file = parseTenantFile(`${id}.yaml`, text, this.options.sections, this.options.ceilings).tenant;
    } catch (err) {
      if (!(err instanceof TenantConfigError)) throw err;
      throw invalid(err.problems);
    }
    if (file.id !== id) throw invalid([`the file is for tenant "${file.id}", not "${id}"`]);
    return file;
  }

  /** Every connector of an imported file must exist and be configured within the tenant's variables. */
  private checkConnectors(id: string, connectors: TenantFile['connectors']): void {
    const problems = Object.entries(connectors).flatMap(([name, template]) => {
      const checked = this.tenantConnectors.check(id, name, template);
      return checked.ok ? [] : [`connectors.${name}: ${checked.problem}`];
    });
    if (problems.length) throw invalid(problems);
  }

  async exportYaml(id: string): Promise<string> {
    const tenant = await this.tenants.findTenant(id);
    if (!tenant) throw notFound(id);
    return exportTenantFile(tenant, await this.tenants.bindingsOf(id), this.options.sections);
  }

  /**
   * Applies a tenant file: every agent type whose tools differ becomes a new version (import of an
   * unchanged export changes nothing); agent types missing from the file are emptied. The tenant's
   * own fields change in one audited step whose event carries the diff. A tenant admin may change
   * settings and bindings, but not where a connector points, which secret it sends, or which
   * variables it reads: those are the platform admin's (`authority: 'platform'`). When the text is
   * the tenant's file as it is on disk, the import counts as that file's (TenantFileImports).
   */
  async importYaml(
    id: string,
    text: string,
    actor: AuditActor,
    authority: 'platform' | 'tenant' | 'configuration',
  ) {
    const tenant = await this.tenants.findTenant(id);
    if (!tenant) throw notFound(id);
    const plan = await this.plan(tenant, this.parse(id, text));
    // `configuration`: a separated system admin (ADR 039) changes the tenant, not its bindings.
    if (authority === 'configuration' && plan.bindings.length)
      throw new ToolgateError(ErrorCode.DUTIES_SEPARATED, {
        params: { act: 'bindings', role: 'security_admin', heldRole: 'system_admin' },
        details: {
          act: 'bindings',
          requiredRole: 'security_admin',
          heldRole: 'system_admin',
          agentTypes: plan.bindings.map((b) => b.agentType),
        },
      });
    const refused = authority === 'tenant' ? plan.tenantChange.platformOnly() : [];
    if (refused.length) {
      throw new ToolgateError(ErrorCode.FORBIDDEN, {
        details: { reason: refused.map((r) => `${r.path}: ${r.reason}`).join('; '), refused },
      });
    }
    this.checkConnectors(id, plan.file.connectors);
    const changed: string[] = [];
    if (!plan.tenantChange.empty) {
      await this.tenants.updateTenant(id, plan.tenantFields, (em) =>
        this.audit.recordIn(em, [
          {
            event: 'tenant_changed',
            tenantId: id,
            actor,
            details: { kind: 'import', changes: plan.tenantChange.forAudit() },
          },
        ]),
      );
      this.resolver.invalidate(id); // connectors and settings are read from the resolver's snapshot
      changed.push('tenant');
    }
    for (const { agentType, now, wanted } of plan.bindings) {
      await this.bindings.replace(id, agentType, { version: now?.version ?? 0, ...wanted }, actor, 'import');
      changed.push(agentType);
    }
    await this.fileImports.recordIfTheFile(id, text);
    return { tenantId: id, changed, unchanged: changed.length === 0 } satisfies ImportResult;
  }

  /**
   * What importing `file` would change, without changing it: `tenant` for the tenant's own fields,
   * then each agent type that would get a new version. Empty: the tenant is as the file says.
   */
  async differences(id: string, file: TenantFile): Promise<string[]> {
    const tenant = await this.tenants.findTenant(id);
    if (!tenant) throw notFound(id);
    const plan = await this.plan(tenant, file);
    return [...(plan.tenantChange.empty ? [] : ['tenant']), ...plan.bindings.map((b) => b.agentType)];
  }

  /** The tenant's field change and the agent types that differ from the file, sub-agents first. */
  private async plan(tenant: TenantEntity, file: TenantFile) {
    const tenantFields = {
      name: file.name,
      locale: file.locale ?? null,
      connectors: file.connectors,
      settings: settingsOf(file, this.options.sections),
    };
    const tenantChange = new TenantChange(
      {
        name: tenant.name,
        locale: tenant.locale,
        connectors: tenant.connectors ?? {},
        settings: tenant.settings ?? {},
      },
      tenantFields,
      this.connectorRegistry,
    );
    const current = new Map((await this.tenants.bindingsOf(tenant.id)).map((b) => [b.agentType, b]));
    const wanted = new Map(
      Object.entries(file.agentTypes).map(([agentType, a]) => [
        agentType,
        { description: a.description, tools: a.tools, run: runSettingsOf(a) },
      ]),
    );
    // Agent types missing from the file are emptied (their tools), not forgotten.
    for (const [agentType, now] of current)
      if (!wanted.has(agentType))
        wanted.set(agentType, { description: now.description, tools: [], run: storedRunSettings(now.run) });
    const bindings = subAgentsFirst(wanted)
      .map((agentType) => ({ agentType, now: current.get(agentType), wanted: wanted.get(agentType)! }))
      .filter(
        ({ now, wanted: a }) =>
          !(
            now &&
            now.description === a.description &&
            canonicalJson(now.tools) === canonicalJson(a.tools) &&
            canonicalJson(storedRunSettings(now.run)) === canonicalJson(a.run)
          ),
      );
    return { file, tenantFields, tenantChange, bindings };
  }
}
