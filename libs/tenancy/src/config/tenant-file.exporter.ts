import { DEFAULT_AGENT_RUN_SETTINGS, type AgentRunSettingsView } from '@toolgate/contract';
import { stringify } from 'yaml';
import { storedRunSettings } from '../agent-run-settings.js';
import type { AgentBindingEntity } from '../entities/agent-binding.entity.js';
import type { TenantEntity } from '../entities/tenant.entity.js';
import type { TenantSections } from './tenant-sections.js';

/** The run settings that differ from the defaults: a file names only those, like the demo files. */
function changedRunSettings(run: AgentRunSettingsView): Partial<AgentRunSettingsView> {
  return Object.fromEntries(
    Object.entries(run).filter(
      ([key, value]) =>
        JSON.stringify(value) !==
        JSON.stringify(DEFAULT_AGENT_RUN_SETTINGS[key as keyof AgentRunSettingsView]),
    ),
  );
}

/**
 * A tenant as a `config/tenants/<id>.yaml` file: the format the boot import reads, so exporting
 * then importing changes nothing. Connector values keep their ${VAR} placeholders.
 */
export function exportTenantFile(
  tenant: TenantEntity,
  bindings: readonly AgentBindingEntity[],
  sections: TenantSections,
): string {
  const doc: Record<string, unknown> = { id: tenant.id, name: tenant.name };
  if (tenant.demo) doc.demo = true;
  if (tenant.locale) doc.locale = tenant.locale;
  if (Object.keys(tenant.connectors ?? {}).length) doc.connectors = tenant.connectors;
  doc.agentTypes = Object.fromEntries(
    bindings.map((b) => [
      b.agentType,
      {
        ...(b.description ? { description: b.description } : {}),
        ...changedRunSettings(storedRunSettings(b.run)),
        tools: b.tools.map((t) => (Object.keys(t).length === 1 ? t.name : t)),
      },
    ]),
  );
  for (const key of Object.keys(sections)) {
    const value = tenant.settings?.[key];
    if (value !== undefined) doc[key] = value;
  }
  return `# Exported by Toolgate at ${new Date().toISOString()}\n${stringify(doc, { lineWidth: 0 })}`;
}
