import { Injectable } from '@nestjs/common';
import { ConnectorRegistry, ToolRegistry } from '@toolgate/toolkit';
import { approverGroupsOf, bindingProblems } from '../binding-rules.js';
import { TenantConnectors } from '../tenant-connectors.js';
import type { LoadedTenantFile } from './tenant-file.loader.js';
import { sharedVariableNamespace, tenantVariablePrefix } from './tenant-variables.js';

/** What a parsed tenant file must also satisfy to be imported: the boot's rules and the watcher's. */
@Injectable()
export class TenantFileCheck {
  constructor(
    private readonly tools: ToolRegistry,
    private readonly connectors: ConnectorRegistry,
    private readonly tenantConnectors: TenantConnectors,
  ) {}

  /** Every problem of one file: bindings against the registry, connectors against their schemas. */
  problems(f: LoadedTenantFile): string[] {
    const problems: string[] = [];
    const at = (path: (string | number)[]) => {
      const line = f.lineOf(path);
      return `${f.file}: ${path.join('.')}${line ? ` (line ${line})` : ''}`;
    };
    const groups = approverGroupsOf(f.tenant);
    for (const [agentType, a] of Object.entries(f.tenant.agentTypes)) {
      for (const p of bindingProblems(a.tools, this.tools, groups))
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

  /** A tenant's variables `TOOLGATE_T_<ID>__*` must not be the start of another tenant's. */
  namespaceProblems(f: LoadedTenantFile, tenantIds: readonly string[]): string[] {
    const sharing = sharedVariableNamespace(f.tenant.id, tenantIds);
    return sharing
      ? [
          `${f.file}: tenant "${f.tenant.id}" would share the variables ${tenantVariablePrefix(f.tenant.id)}* with tenant "${sharing}"`,
        ]
      : [];
  }
}
