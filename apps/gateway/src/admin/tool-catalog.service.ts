import { Injectable } from '@nestjs/common';
import type { CatalogTool } from '@toolgate/contract';
import { TenantRepository } from '@toolgate/tenancy';
import { toJsonSchemaItem, ToolRegistry } from '@toolgate/toolkit';

/** The tool catalog: every contract with its implementations, policy, schemas, and who binds it. */
@Injectable()
export class ToolCatalog {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly tenants: TenantRepository,
  ) {}

  async list(scope: string | null): Promise<CatalogTool[]> {
    const bindings = (await this.tenants.allBindings()).filter((b) => scope === null || b.tenantId === scope);
    return this.registry.list().map((tool) => {
      const item = toJsonSchemaItem({
        contract: tool,
        timeoutMs: tool.timeoutMs,
        approval: tool.approval.mode,
      });
      return {
        ...item,
        // toJsonSchemaItem writes the literal 'dynamic' but its type widens it to string.
        endsTurn: item.endsTurn as CatalogTool['endsTurn'],
        dynamic: tool.dynamic,
        label: tool.label?.start && typeof tool.label.start === 'string' ? tool.label.start : undefined,
        contractHash: tool.contractHash,
        implementations: [...tool.implementations.values()].map((i) => ({
          name: i.name,
          source: i.source,
          definitionHash: i.definitionHash,
        })),
        boundBy: bindings.flatMap((b) =>
          b.tools
            .filter((t) => t.name === tool.name)
            .map((t) => ({
              tenantId: b.tenantId,
              agentType: b.agentType,
              implementation: t.implementation ?? null,
              version: b.version,
            })),
        ),
      } satisfies CatalogTool;
    });
  }
}
