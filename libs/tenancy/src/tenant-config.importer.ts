import { join } from 'node:path';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { TenantFileCheck } from './config/tenant-file.check.js';
import { loadTenantFiles, TenantConfigError } from './config/tenant-file.loader.js';
import { TenantFileSync } from './config/tenant-file.sync.js';
import { TENANCY_OPTIONS, type TenancyOptions } from './tenancy.options.js';
import { TenantRepository } from './tenant.repository.js';

/**
 * Validates `config/tenants/*.yaml` at boot (any problem stops the boot, naming file, path and
 * line), imports tenants the database does not have yet, and hands existing ones to
 * TenantFileSync, which re-imports a changed file only when no admin changed the tenant since
 * (ADR 029); then, with `watchFiles`, watches the files.
 */
@Injectable()
export class TenantConfigImporter implements OnApplicationBootstrap {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly check: TenantFileCheck,
    private readonly sync: TenantFileSync,
    @Inject(TENANCY_OPTIONS) private readonly options: TenancyOptions,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const files = loadTenantFiles(
      join(this.options.configDir, 'tenants'),
      this.options.sections,
      this.options.ceilings,
    ).filter((f) => this.options.demo || !f.tenant.demo);
    const existing = (await this.tenants.listTenants()).map((t) => t.id);
    const ids = [...existing, ...files.map((o) => o.tenant.id)];
    const problems = files.flatMap((f) => [
      ...this.check.problems(f),
      ...this.check.namespaceProblems(f, ids),
    ]);
    if (problems.length) throw new TenantConfigError(problems);
    for (const f of files) await this.sync.apply(f);
    if (this.options.watchFiles) this.sync.watch();
  }
}
