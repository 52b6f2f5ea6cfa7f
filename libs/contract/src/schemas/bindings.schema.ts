import { z } from 'zod';
import type { BindingDiff, BindingTool } from '../rules/binding-diff.js';
import { AGENT_TYPE, approvalModeSchema, instant, issueSchema, riskLevelSchema } from './common.schema.js';
import { named } from './registry.js';

/** One tool in a binding: which tool, which implementation, which (tighten-only) overrides. */
export const bindingToolSchema = named(
  'BindingTool',
  z.strictObject({
    name: z.string().min(1),
    implementation: z.string().min(1).optional(),
    timeoutMs: z.number().int().positive().optional(),
    approval: approvalModeSchema.optional(),
  }),
) satisfies z.ZodType<BindingTool>;

/** A binding entry as written in a file or an admin request: a bare tool name is shorthand for { name }. */
export const bindingToolEntrySchema = z.union([
  z
    .string()
    .min(1)
    .transform((name) => ({ name })),
  bindingToolSchema,
]);

export const bindingDiffSchema = named(
  'BindingDiff',
  z.object({
    added: z.array(z.string()),
    removed: z.array(z.string()),
    changed: z.array(z.object({ name: z.string(), from: bindingToolSchema, to: bindingToolSchema })),
  }),
) satisfies z.ZodType<BindingDiff>;

/** One agent type's bindings: `GET .../bindings` items and the answer of `PUT .../bindings`. */
export const bindingViewSchema = named(
  'BindingView',
  z.object({
    agentType: z.string(),
    description: z.string(),
    version: z.number().int(),
    tools: z.array(bindingToolSchema),
    updatedAt: instant(),
    updatedBy: z.string(),
  }),
);
export type BindingView = z.infer<typeof bindingViewSchema>;

/** A tool as an agent would see it under a binding, next to what the tool itself declares. */
export const effectiveToolSchema = named(
  'EffectiveTool',
  z.object({
    name: z.string(),
    description: z.string(),
    implementation: z.string(),
    riskLevel: riskLevelSchema,
    dataDomains: z.array(z.string()).readonly(),
    timeoutMs: z.number().int(),
    declaredTimeoutMs: z.number().int(),
    approval: approvalModeSchema,
    declaredApproval: approvalModeSchema,
  }),
);
export type EffectiveTool = z.infer<typeof effectiveToolSchema>;

/** `POST .../bindings/preview`: what a change would give, without saving. */
export const bindingPreviewSchema = named(
  'BindingPreview',
  z.object({
    agentType: z.string(),
    currentVersion: z.number().int(),
    effective: z.array(effectiveToolSchema),
    problems: z.array(issueSchema),
    diff: bindingDiffSchema,
  }),
);
export type BindingPreview = z.infer<typeof bindingPreviewSchema>;

/** How a binding version came to be: a tenant file import or an admin's update. */
export const BINDING_CHANGE_KINDS = ['import', 'update'] as const;
export type BindingChangeKind = (typeof BINDING_CHANGE_KINDS)[number];

/** An item of `GET .../bindings/history`, newest first; the diff is against the version before (the first: against nothing). */
export const bindingHistoryEntrySchema = named(
  'BindingHistoryEntry',
  z.object({
    agentType: z.string(),
    version: z.number().int(),
    kind: z.enum(BINDING_CHANGE_KINDS),
    changedBy: z.string(),
    changedAt: instant(),
    tools: z.array(bindingToolSchema),
    diff: bindingDiffSchema,
  }),
);
export type BindingHistoryEntry = z.infer<typeof bindingHistoryEntrySchema>;

const bindingTools = z.array(bindingToolEntrySchema).max(500);

/** Body of `PUT .../agents/:agentType/bindings`: the whole new tool list and the version it replaces. */
export const replaceBindingsBody = z.strictObject({
  version: z
    .number()
    .int()
    .nonnegative()
    .describe('The version this change is based on (0 for a new agent type)'),
  tools: bindingTools,
  description: z.string().max(500).optional(),
});
export type ReplaceBindingsBody = z.infer<typeof replaceBindingsBody>;

/** Body of `POST .../agents/:agentType/bindings/preview`. */
export const previewBindingsBody = z.strictObject({ tools: bindingTools });
export type PreviewBindingsBody = z.infer<typeof previewBindingsBody>;

/** Query of `GET .../bindings/history`. */
export const historyQuery = z.strictObject({ agentType: z.string().max(64).optional() });
export type HistoryQuery = z.infer<typeof historyQuery>;

/** The `:agentType` of the binding routes. */
export const agentTypeParam = AGENT_TYPE.max(64);
