import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { AuditTrail } from '@toolgate/audit';
import { TENANCY_OPTIONS, type TenancyOptions } from '../tenancy.options.js';
import { TenantAdmin } from '../tenant-admin.service.js';
import { FILE_IMPORT_ACTOR, TenantFileImports } from '../tenant-file-imports.js';
import { TenantRepository } from '../tenant.repository.js';
import { TenantFileCheck } from './tenant-file.check.js';
import { parseTenantFile, TenantConfigError, type LoadedTenantFile } from './tenant-file.loader.js';
import { runSettingsOf } from './tenant-file.schema.js';
import { settingsOf } from './tenant-sections.js';

/** Editors write a file in several steps (truncate, write, rename): one look once they are done. */
const SETTLE_MS = 200;
const TENANT_FILE = /\.ya?ml$/;

/**
 * Keeps the database in step with `config/tenants/*.yaml` without ever overwriting what an admin
 * changed (DESIGN.md, ADR 029). A tenant that first appears in a file is imported. With
 * `watchFiles`, a file that changed since its last import — while the gateway ran or while it was
 * stopped — is re-imported as new versions, with the API import's validation and audit events,
 * when the tenant is still exactly what that import left; otherwise, and for a file that does not
 * validate, the log says once, at the change, why the file was not applied and what to run.
 */
@Injectable()
export class TenantFileSync implements OnApplicationShutdown {
  private readonly logger = new Logger('TenantFiles');
  private watcher?: FSWatcher;
  private readonly settling = new Map<string, NodeJS.Timeout>();
  /** The text (by hash) each file had when it was last looked at: one message per change. */
  private readonly seen = new Map<string, string>();
  /** Changes are handled one at a time, in the order they came. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly tenants: TenantRepository,
    private readonly check: TenantFileCheck,
    private readonly admin: TenantAdmin,
    private readonly imports: TenantFileImports,
    private readonly audit: AuditTrail,
    @Inject(TENANCY_OPTIONS) private readonly options: TenancyOptions,
  ) {}

  /** A file validated at boot: imports its tenant when new, else follows the file when it may. */
  async apply(f: LoadedTenantFile): Promise<void> {
    const tenant = await this.tenants.findTenant(f.tenant.id);
    if (tenant) await this.follow(f);
    else await this.importNew(f);
    this.seen.set(f.file, this.imports.fileHash(f.text));
  }

  /** Starts watching the tenant files (with `watchFiles`). */
  watch(): void {
    const dir = join(this.options.configDir, 'tenants');
    try {
      this.watcher = watch(dir, (_event, name) => {
        if (name && TENANT_FILE.test(name)) this.settle(join(dir, name));
      });
    } catch (err) {
      this.logger.warn(`cannot watch ${dir} (${(err as Error).message}): tenant files are read at boot only`);
      return;
    }
    this.watcher.on('error', (err) => this.logger.warn(`stopped watching ${dir}: ${err.message}`));
  }

  onApplicationShutdown(): void {
    this.watcher?.close();
    for (const timer of this.settling.values()) clearTimeout(timer);
    this.settling.clear();
  }

  private settle(file: string): void {
    clearTimeout(this.settling.get(file));
    this.settling.set(
      file,
      setTimeout(() => {
        this.settling.delete(file);
        this.queue = this.queue
          .then(() => this.changed(file))
          .catch((err: unknown) =>
            this.logger.error(`${file} could not be applied: ${(err as Error).message ?? String(err)}`),
          );
      }, SETTLE_MS),
    );
  }

  /** One file changed on disk (or went away) while the gateway runs. */
  private async changed(file: string): Promise<void> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      if (this.seen.delete(file))
        this.logger.log(`${file} was removed; its tenant stays in the database as it is`);
      return;
    }
    const hash = this.imports.fileHash(text);
    if (this.seen.get(file) === hash) return;
    const f = this.validated(file, text);
    if (f) {
      if (await this.tenants.findTenant(f.tenant.id)) await this.follow(f);
      else await this.importNew(f);
    }
    this.seen.set(file, hash);
  }

  /** The file parsed and checked as at boot; undefined (and said why) when it is not valid. */
  private validated(file: string, text: string): LoadedTenantFile | undefined {
    let f: LoadedTenantFile;
    try {
      f = parseTenantFile(file, text, this.options.sections);
    } catch (err) {
      if (!(err instanceof TenantConfigError)) throw err;
      this.notApplied(file, err.problems);
      return undefined;
    }
    if (f.tenant.demo && !this.options.demo) return undefined;
    const stem = basename(file).replace(TENANT_FILE, '');
    const problems = [
      ...(f.tenant.id === stem ? [] : [`${file}: id "${f.tenant.id}" must match the file name "${stem}"`]),
      ...this.check.problems(f),
    ];
    if (problems.length) {
      this.notApplied(file, problems);
      return undefined;
    }
    return f;
  }

  private notApplied(file: string, problems: readonly string[]): void {
    this.logger.warn(
      `${file} was not applied, nothing changed (fix it and save it again):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  }

  /** Creates a tenant that first appears in a file, with version 1 of each agent type. */
  private async importNew(f: LoadedTenantFile): Promise<void> {
    const others = (await this.tenants.listTenants()).map((t) => t.id);
    const sharing = this.check.namespaceProblems(f, others);
    if (sharing.length) return this.notApplied(f.file, sharing);
    const agentTypes = Object.entries(f.tenant.agentTypes);
    const imported = await this.tenants.importTenant(
      {
        tenant: {
          id: f.tenant.id,
          name: f.tenant.name,
          locale: f.tenant.locale ?? null,
          demo: f.tenant.demo,
          connectors: f.tenant.connectors,
          settings: settingsOf(f.tenant, this.options.sections),
        },
        agentTypes: agentTypes.map(([agentType, a]) => ({
          agentType,
          description: a.description,
          tools: a.tools,
          run: runSettingsOf(a),
        })),
      },
      FILE_IMPORT_ACTOR.id,
      (em) =>
        this.audit.recordIn(
          em,
          agentTypes.map(([agentType, a]) => ({
            event: 'binding_changed' as const,
            tenantId: f.tenant.id,
            actor: FILE_IMPORT_ACTOR,
            agentType,
            details: { kind: 'import', source: f.file, version: 1, tools: a.tools },
          })),
        ),
    );
    // false: another gateway imported it first; then it is followed like any existing tenant.
    if (!imported) return this.follow(f);
    await this.imports.record(f.tenant.id, f.text);
    this.logger.log(`imported tenant ${f.tenant.id} from ${f.file}`);
  }

  /** An existing tenant's file: re-imported when it changed and the tenant is as its last import left it. */
  private async follow(f: LoadedTenantFile): Promise<void> {
    const id = f.tenant.id;
    const last = await this.imports.lastImport(id);
    if (last?.fileHash === this.imports.fileHash(f.text)) return;
    const differences = await this.admin.differences(id, f.tenant);
    if (differences.length === 0) return this.imports.record(id, f.text);
    const apply = `npm run tenant:import -- ${f.file} (POST /v1/admin/tenants/${id}/import, or the console's bindings page, YAML)`;
    if (!this.options.watchFiles) {
      this.logger.log(
        `${f.file} differs from tenant ${id} in the database (${differences.join(', ')}) and was not applied: with TOOLGATE_WATCH_TENANT_FILES off a file is imported only when its tenant first appears. To apply it: ${apply}`,
      );
      return;
    }
    if (!(await this.imports.untouchedSince(id, last))) {
      this.logger.warn(
        `${f.file} changed, but tenant ${id} was changed through the console or the API since the file was last imported: the file was not applied, so that change stays (the file would change: ${differences.join(', ')}). To apply the file anyway, as new versions: ${apply}`,
      );
      return;
    }
    const result = await this.admin.importYaml(id, f.text, FILE_IMPORT_ACTOR, 'platform');
    await this.imports.record(id, f.text);
    this.logger.log(`re-imported ${f.file} into tenant ${id}: new version of ${result.changed.join(', ')}`);
  }
}
