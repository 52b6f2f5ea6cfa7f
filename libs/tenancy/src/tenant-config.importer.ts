import { join } from 'node:path';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { AuditTrail } from '@toolgate/audit';
import { ConnectorRegistry, ToolRegistry } from '@toolgate/toolkit';
import { bindingProblems } from './binding-rules.js';
import { loadTenantFiles, TenantConfigError, type LoadedTenantFile } from './config/tenant-file.loader.js';
import { runSettingsOf, TENANT_SETTINGS_KEYS, type TenantFile } from './config/tenant-file.schema.js';
import { sharedVariableNamespace, tenantVariablePrefix } from './config/tenant-variables.js';
import { TENANCY_OPTIONS, type TenancyOptions } from './tenancy.options.js';
import { TenantConnectors } from './tenant-connectors.js';
import { TenantRepository } from './tenant.repository.js';

/** The per-tenant policies a file carries, as stored in the tenant's settings. */
export function settingsOf(file: TenantFile): Record<string, unknown> {
  return Object.fromEntries(
    TENANT_SETTINGS_KEYS.map((key) => [key, file[key]]).filter(([, v]) => v !== undefined),
  );
}

/**
 * Validates `config/tenants/*.yaml` at boot and imports tenants the database does not have yet.
 * A tenant that exists is left alone: a restart never overwrites what an admin changed.
 */
@Injectable()
export class TenantConfigImporter implements OnApplicationBootstrap {
  private readonly logger = new Logger('TenantConfig');

  constructor(
    private readonly tenants: TenantRepository,
    private readonly tools: ToolRegistry,
    private readonly connectors: ConnectorRegistry,
    private readonly tenantConnectors: TenantConnectors,
    private readonly audit: AuditTrail,
    @Inject(TENANCY_OPTIONS) private readonly options: TenancyOptions,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const files = loadTenantFiles(join(this.options.configDir, 'tenants'), this.options.ceilings).filter(
      (f) => this.options.demo || !f.tenant.demo,
    );
    const existing = (await this.tenants.listTenants()).map((t) => t.id);
    const problems = files.flatMap((f) => this.check(f));
    for (const f of files) {
      const sharing = sharedVariableNamespace(f.tenant.id, [...existing, ...files.map((o) => o.tenant.id)]);
      if (sharing)
        problems.push(
          `${f.file}: tenant "${f.tenant.id}" would share the variables ${tenantVariablePrefix(f.tenant.id)}* with tenant "${sharing}"`,
        );
    }
    if (problems.length) throw new TenantConfigError(problems);
    for (const f of files) {
      const agentTypes = Object.entries(f.tenant.agentTypes);
      const imported = await this.tenants.importTenant(
        {
          tenant: {
            id: f.tenant.id,
            name: f.tenant.name,
            locale: f.tenant.locale ?? null,
            demo: f.tenant.demo,
            connectors: f.tenant.connectors,
            settings: settingsOf(f.tenant),
          },
          agentTypes: agentTypes.map(([agentType, a]) => ({
            agentType,
            description: a.description,
            tools: a.tools,
            run: runSettingsOf(a),
          })),
        },
        'config',
        (em) =>
          this.audit.recordIn(
            em,
            agentTypes.map(([agentType, a]) => ({
              event: 'binding_changed' as const,
              tenantId: f.tenant.id,
              actor: { type: 'system' as const, id: 'config' },
              agentType,
              details: { kind: 'import', source: f.file, version: 1, tools: a.tools },
            })),
          ),
      );
      if (imported) this.logger.log(`imported tenant ${f.tenant.id} from ${f.file}`);
      else this.logger.log(`tenant ${f.tenant.id} is already in the database; ${f.file} was not re-imported`);
    }
  }

  /** Every problem of one file: bindings against the registry, connectors against their schemas. */
  private check(f: LoadedTenantFile): string[] {
    const problems: string[] = [];
    const at = (path: (string | number)[]) => {
      const line = f.lineOf(path);
      return `${f.file}: ${path.join('.')}${line ? ` (line ${line})` : ''}`;
    };
    for (const [agentType, a] of Object.entries(f.tenant.agentTypes)) {
      for (const p of bindingProblems(a.tools, this.tools))
        problems.push(`${at(['agentTypes', agentType, 'tools'])}: ${p.problem}`);
    }
    for (const [name, template] of Object.entries(f.tenant.connectors)) {
      if (!this.connectors.get(name)) {
        problems.push(
          `${at(['connectors', name])}: unknown connector (known: ${this.connectors.names().join(', ') || 'none'})`,
        );
        continue;
      }
      const checked = this.tenantConnectors.check(f.tenant.id, name, template);
      if (!checked.ok) problems.push(`${at(['connectors', name])}: ${checked.problem}`);
    }
    return problems;
  }
}
