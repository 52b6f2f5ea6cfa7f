import { describe, expect, it } from 'vitest';

/** A tenant file with no sections: these specs are about its own fields. */
const NO_SECTIONS = {};
import type { AgentBindingEntity } from '../entities/agent-binding.entity.js';
import type { TenantEntity } from '../entities/tenant.entity.js';
import { exportTenantFile } from './tenant-file.exporter.js';
import { parseTenantFile } from './tenant-file.loader.js';
import { runSettingsOf } from './tenant-file.schema.js';

const FILE = `id: acme
name: ACME 精密制造
locale: zh-CN
agentTypes:
  ops_assistant:
    description: 运维助手
    model: { provider: default, name: qwen-plus }
    instructions: |-
      你是 ACME 的运维助手。
      重启服务前先查看状态与日志。
    maxSteps: 12
    deadlineMs: 300000
    maxParallelToolCalls: 2
    tokenBudget: 50000
    subAgents: [log_reader]
    tools:
      - read_logs
      - { name: restart_service, approval: always }
  log_reader:
    tools: [read_logs]
`;

/** What the database holds after importing a file: rows as the repository writes them. */
function stored(text: string): { tenant: TenantEntity; bindings: AgentBindingEntity[] } {
  const file = parseTenantFile('acme.yaml', text, NO_SECTIONS).tenant;
  const now = new Date();
  const tenant = {
    id: file.id,
    name: file.name,
    locale: file.locale ?? null,
    demo: file.demo,
    connectors: file.connectors,
    settings: {},
    createdAt: now,
    updatedAt: now,
  } satisfies TenantEntity;
  const bindings = Object.entries(file.agentTypes).map(
    ([agentType, a]) =>
      ({
        tenantId: file.id,
        agentType,
        description: a.description,
        version: 1,
        tools: a.tools,
        run: runSettingsOf(a),
        updatedAt: now,
        updatedBy: 'config',
      }) satisfies AgentBindingEntity,
  );
  return { tenant, bindings };
}

describe('exportTenantFile', () => {
  it('keeps the run settings: export then import gives the same agent types', () => {
    const first = stored(FILE);
    const exported = exportTenantFile(first.tenant, first.bindings, NO_SECTIONS);
    const again = stored(exported);
    expect(again.bindings).toEqual(first.bindings.map((b) => ({ ...b, updatedAt: expect.any(Date) })));
    expect(exportTenantFile(again.tenant, again.bindings, NO_SECTIONS).replace(/^#.*\n/, '')).toBe(
      exported.replace(/^#.*\n/, ''),
    );
  });

  it('names only the settings that differ from the defaults, and none for rows without them', () => {
    const { tenant, bindings } = stored(FILE);
    const text = exportTenantFile(
      tenant,
      [...bindings.slice(1), { ...bindings[0]!, run: null }],
      NO_SECTIONS,
    );
    expect(text).not.toMatch(/maxSteps|instructions|model|subAgents/);
    expect(exportTenantFile(tenant, bindings, NO_SECTIONS)).toContain('maxSteps: 12');
  });
});
