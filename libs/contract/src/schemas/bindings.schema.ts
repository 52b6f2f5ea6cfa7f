import { z } from 'zod';
import { AGENT_INSTRUCTIONS_MAX, AGENT_RUN_LIMITS, AGENT_SUB_AGENTS_MAX } from '../rules/agent-run-limits.js';
import type {
  BindingDiff,
  BindingTool,
  GuardrailCheck,
  RuleLimit,
  RuleMask,
  ToolGuardrails,
  ToolRule,
} from '../rules/binding-diff.js';
import { RULE_LIMITS } from '../rules/rule-limits.js';
import { PI_CLASSES } from '../rules/vocabulary.js';
import { AGENT_TYPE, approvalModeSchema, instant, issueSchema, riskLevelSchema } from './common.schema.js';
import { named } from './registry.js';

const reasonText = z.string().trim().min(1).max(RULE_LIMITS.reasonChars);

/** A field path of a mask rule: `customer.idNumber`, `items.*.card` (`*`: every element or value). */
const maskPath = z
  .string()
  .max(300)
  .regex(
    /^(?:[A-Za-z0-9_$-]+|\*)(?:\.(?:[A-Za-z0-9_$-]+|\*))*$/,
    'dot-separated field names, * for every element',
  )
  .refine((p) => p.split('.').length <= RULE_LIMITS.maskPathDepth, {
    message: `at most ${RULE_LIMITS.maskPathDepth} segments`,
  });

/** What a `mask` rule redacts: fields of the input (before the tool runs) and of the result. */
export const ruleMaskSchema = named(
  'RuleMask',
  z
    .strictObject({
      input: z.array(maskPath).optional().describe('Input fields redacted before the tool sees them'),
      output: z
        .array(maskPath)
        .optional()
        .describe('Result fields redacted before the caller or model sees them'),
      piClass: z
        .enum(PI_CLASSES)
        .optional()
        .describe('personal: a partial mask (138****5678); otherwise sealed as [REDACTED]'),
    })
    .refine((m) => (m.input?.length ?? 0) + (m.output?.length ?? 0) > 0, {
      message: 'name at least one input or output field',
    })
    .refine((m) => (m.input?.length ?? 0) + (m.output?.length ?? 0) <= RULE_LIMITS.maskPaths, {
      message: `at most ${RULE_LIMITS.maskPaths} fields`,
    }),
) satisfies z.ZodType<RuleMask>;

/** A `limit` rule's bucket: at most `max` matching calls per minute, hour or day, per key or tenant. */
export const ruleLimitSchema = named(
  'RuleLimit',
  z.strictObject({
    max: z.number().int().min(1).max(RULE_LIMITS.limitMax),
    per: z.enum(['minute', 'hour', 'day']),
    scope: z.enum(['key', 'tenant']).default('key'),
  }),
) satisfies z.ZodType<RuleLimit, unknown>;

/** The fields that belong to one outcome only. */
const OUTCOME_FIELDS = {
  approvers: 'require_approval',
  expiresInMs: 'require_approval',
  approverGroup: 'require_approval',
  mask: 'mask',
  limit: 'limit',
} as const;

/**
 * A rule on one bound tool's calls (issue 26): the first rule, in written order, whose `when` (a
 * CEL expression) is true decides. `deny` needs a reason in both languages; `require_approval` may
 * say how many approvers and how long the approval waits. Rules only tighten (checked at save).
 */
export const toolRuleSchema = named(
  'ToolRule',
  z
    .strictObject({
      id: z
        .string()
        .max(64)
        .regex(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/, 'lower-case letters and digits, single - or _ between'),
      when: z
        .string()
        .trim()
        .min(1)
        .max(RULE_LIMITS.expressionChars)
        .describe('A CEL expression over input, principal, tool, now, face and run'),
      then: z.enum(['allow', 'deny', 'require_approval', 'mask', 'limit']),
      reason: z.strictObject({ en: reasonText, zh: reasonText }).optional(),
      approvers: z.number().int().min(1).max(RULE_LIMITS.approvers).optional(),
      expiresInMs: z.number().int().min(60_000).max(RULE_LIMITS.expiresInMs).optional(),
      approverGroup: z
        .string()
        .max(64)
        .regex(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/, "a group of the tenant file's approvals.groups")
        .optional()
        .describe('require_approval: only members of this group may decide'),
      mask: ruleMaskSchema.optional(),
      limit: ruleLimitSchema.optional(),
    })
    .superRefine((r, ctx) => {
      if (r.then === 'deny' && !r.reason)
        ctx.addIssue({
          code: 'custom',
          path: ['reason'],
          message: 'a deny rule needs a reason in en and zh',
        });
      for (const [field, outcome] of Object.entries(OUTCOME_FIELDS))
        if (r.then !== outcome && r[field as keyof typeof OUTCOME_FIELDS] !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: `${field} belongs to ${outcome} rules`,
          });
      if (r.then === 'mask' && !r.mask)
        ctx.addIssue({ code: 'custom', path: ['mask'], message: 'a mask rule names its fields in mask' });
      if (r.then === 'limit' && !r.limit)
        ctx.addIssue({ code: 'custom', path: ['limit'], message: 'a limit rule names its bucket in limit' });
    }),
) satisfies z.ZodType<ToolRule, unknown>;

/** One side of a tool's content guardrails (ADR 045): what is looked for, and what is done when found. */
const guardrailCheckSchema = (side: 'input' | 'output') =>
  z
    .strictObject({
      pii: z
        .array(z.enum(['cn_id', 'mobile', 'bank_card', 'email']))
        .optional()
        .describe("personal data by the redactor's patterns: cn_id, mobile, bank_card, email"),
      secrets: z.boolean().optional().describe('API keys, tokens, private keys'),
      injection: z
        .boolean()
        .optional()
        .describe('instruction-like text (a prompt-injection heuristic); output only'),
      action: z
        .enum(side === 'input' ? ['mask', 'block', 'require_approval'] : ['mask', 'block'])
        .describe(
          side === 'input'
            ? 'mask: replaced before the tool runs; block: refused; require_approval: parked for a person'
            : 'mask: replaced before the result goes back; block: the result is withheld',
        ),
    })
    .superRefine((c, ctx) => {
      if (!c.pii?.length && !c.secrets && !c.injection)
        ctx.addIssue({ code: 'custom', message: 'a guardrail looks for pii, secrets or injection' });
      if (side === 'input' && c.injection)
        ctx.addIssue({
          code: 'custom',
          path: ['injection'],
          message: 'instruction-like text is looked for in results (output), not inputs',
        });
    }) satisfies z.ZodType<GuardrailCheck>;

/** A bound tool's content guardrails: checks on its input before it runs and its result after. */
export const toolGuardrailsSchema = named(
  'ToolGuardrails',
  z.strictObject({
    input: guardrailCheckSchema('input').optional(),
    output: guardrailCheckSchema('output').optional(),
  }),
) satisfies z.ZodType<ToolGuardrails>;

/** One tool in a binding: which tool, which implementation, which (tighten-only) overrides, its rules. */
export const bindingToolSchema = named(
  'BindingTool',
  z.strictObject({
    name: z.string().min(1),
    implementation: z.string().min(1).optional(),
    timeoutMs: z.number().int().positive().optional(),
    approval: approvalModeSchema.optional(),
    rules: z
      .array(toolRuleSchema)
      .max(RULE_LIMITS.rulesPerTool)
      .superRefine((rules, ctx) => {
        const seen = new Set<string>();
        rules.forEach((r, i) => {
          if (seen.has(r.id))
            ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `rule "${r.id}" is listed twice` });
          seen.add(r.id);
        });
      })
      .optional(),
    guardrails: toolGuardrailsSchema.optional(),
  }),
) satisfies z.ZodType<BindingTool, unknown>;

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

/**
 * The model an agent type runs on: a provider the platform configures (its URL and key are platform
 * settings, never an agent type's) and the model's name at that provider.
 */
export const agentModelSchema = z.strictObject({
  provider: z
    .string()
    .max(64)
    .regex(/^[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*$/, 'name a model provider of the platform configuration')
    .describe('A model provider of the platform configuration, e.g. "demo" or "default"'),
  name: z.string().min(1).max(200).describe('The model at that provider, e.g. "qwen-plus"'),
});
export type AgentModel = z.infer<typeof agentModelSchema>;

const runLimit = (limit: { min: number; max: number }) => z.number().int().min(limit.min).max(limit.max);

/** An agent type's run settings as stored and shown: every field present, defaults filled. */
export const agentRunSettingsSchema = named(
  'AgentRunSettings',
  z.object({
    model: agentModelSchema.nullable().describe('null: the platform default model'),
    instructions: z.string().describe('The system prompt of its runs'),
    maxSteps: runLimit(AGENT_RUN_LIMITS.maxSteps),
    deadlineMs: runLimit(AGENT_RUN_LIMITS.deadlineMs),
    maxParallelToolCalls: runLimit(AGENT_RUN_LIMITS.maxParallelToolCalls),
    tokenBudget: z.number().int().positive().nullable().describe('Tokens per run; null: unlimited'),
    subAgents: z.array(z.string()).describe('Agent types of the same tenant it may delegate to'),
  }),
);
export type AgentRunSettingsView = z.infer<typeof agentRunSettingsSchema>;

/**
 * The run settings as a tenant file or an admin request writes them: every field optional, taking
 * its default (no model: the platform default; 8 steps; 2 minutes; 4 parallel calls; no budget).
 */
export const agentRunSettingsInput = z.strictObject({
  model: agentModelSchema.nullable().default(null),
  instructions: z.string().max(AGENT_INSTRUCTIONS_MAX).default(''),
  maxSteps: runLimit(AGENT_RUN_LIMITS.maxSteps).default(AGENT_RUN_LIMITS.maxSteps.default),
  deadlineMs: runLimit(AGENT_RUN_LIMITS.deadlineMs).default(AGENT_RUN_LIMITS.deadlineMs.default),
  maxParallelToolCalls: runLimit(AGENT_RUN_LIMITS.maxParallelToolCalls).default(
    AGENT_RUN_LIMITS.maxParallelToolCalls.default,
  ),
  tokenBudget: z.number().int().positive().nullable().default(null),
  subAgents: z.array(AGENT_TYPE).max(AGENT_SUB_AGENTS_MAX).default([]),
}) satisfies z.ZodType<AgentRunSettingsView, unknown>;
export type AgentRunSettingsInput = z.input<typeof agentRunSettingsInput>;

/** The settings of an agent type that names none. */
export const DEFAULT_AGENT_RUN_SETTINGS: AgentRunSettingsView = agentRunSettingsInput.parse({});

/** One agent type's bindings: `GET .../bindings` items and the answer of `PUT .../bindings`. */
export const bindingViewSchema = named(
  'BindingView',
  z.object({
    agentType: z.string(),
    description: z.string(),
    version: z.number().int(),
    tools: z.array(bindingToolSchema),
    run: agentRunSettingsSchema,
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
  run: agentRunSettingsInput
    .optional()
    .describe('The whole run settings (omitted fields take their defaults); omitted: unchanged'),
});
export type ReplaceBindingsBody = z.infer<typeof replaceBindingsBody>;

/** Body of `POST .../agents/:agentType/bindings/preview`. */
export const previewBindingsBody = z.strictObject({
  tools: bindingTools,
  run: agentRunSettingsInput.optional().describe('Run settings to check too (their problems are listed)'),
});
export type PreviewBindingsBody = z.infer<typeof previewBindingsBody>;

/** Query of `GET .../bindings/history`. */
export const historyQuery = z.strictObject({ agentType: z.string().max(64).optional() });
export type HistoryQuery = z.infer<typeof historyQuery>;

/** The `:agentType` of the binding routes. */
export const agentTypeParam = AGENT_TYPE.max(64);
