import { z } from 'zod';

/**
 * A tenant file's `upstreams:` section: the tenant's policy on the tools it imports from outside
 * (MCP servers, OpenAPI services), beyond pinning (issue 26, ADR 045).
 */
export const tenantUpstreamSettingsSchema = z.strictObject({
  /**
   * Quarantine an import whose definition (title, description, schemas) reads as instructions to
   * the model — the guardrails' prompt-injection heuristic — as a changed definition is: not
   * callable until an admin reviews and accepts it. Off: such an import is only flagged in its
   * `upstream_changed` event (`details.instructionLike`).
   */
  quarantineInstructionLike: z
    .boolean()
    .default(false)
    .describe(
      'quarantine an imported tool whose definition reads as instructions to the model, until reviewed',
    ),
});
export type TenantUpstreamSettings = z.infer<typeof tenantUpstreamSettingsSchema>;
