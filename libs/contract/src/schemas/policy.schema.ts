import { z } from 'zod';
import { issueSchema } from './common.schema.js';
import { named } from './registry.js';

/** Body of `POST /v1/agents/:agentType/tools/:toolName/check`: the input a call would carry. */
export const checkToolCallBody = z.strictObject({
  input: z.unknown().describe('The tool input to decide on; nothing runs'),
});
export type CheckToolCallBody = z.infer<typeof checkToolCallBody>;

/**
 * Body of `POST /v1/admin/tenants/:tenantId/agent-types/:agentType/tools/:toolName/check` (the
 * console's "try it"): the input, and the agent key to decide as (any agent key of the tenant when
 * absent: rules on the principal see role `agent` and no key id).
 */
export const adminCheckToolCallBody = z.strictObject({
  input: z.unknown().describe('The tool input to decide on; nothing runs'),
  keyId: z.string().min(1).max(64).optional().describe('Decide as this agent key of the tenant'),
});
export type AdminCheckToolCallBody = z.infer<typeof adminCheckToolCallBody>;

/** The rule that decided a call: which, of which binding version, and what it said. */
export const decidingRuleSchema = named(
  'DecidingRule',
  z.object({
    id: z.string(),
    bindingVersion: z.number().int().nullable(),
    then: z.enum(['allow', 'deny', 'require_approval', 'mask', 'limit']),
    failed: z
      .boolean()
      .describe('true: the rule could not be evaluated on this input, and the call is refused (fail closed)'),
  }),
);
export type DecidingRule = z.infer<typeof decidingRuleSchema>;

/** What `POST .../check` answers: the decision, the rule that made it, and what a call would do next. */
export const toolCallCheckSchema = named(
  'ToolCallCheck',
  z.object({
    agentType: z.string(),
    tool: z.string(),
    bindingVersion: z.number().int().nullable(),
    rule: decidingRuleSchema.nullable().describe("null: no rule matched; the tool's own policy decides"),
    next: z
      .enum(['run', 'park', 'refuse'])
      .describe('run: the tool would run; park: it would wait for approvers; refuse: it would be refused'),
    approvers: z.number().int().nullable().describe('park: how many approvers must approve'),
    expiresInMs: z.number().int().nullable().describe('park: how long the approval would wait'),
    approverGroup: z
      .string()
      .nullable()
      .optional()
      .describe('park: the approver group whose members may decide (null: any approver of the tenant)'),
    masked: z
      .object({ input: z.array(z.string()), output: z.array(z.string()) })
      .nullable()
      .optional()
      .describe('a mask rule: the input fields redacted before the tool runs, the result fields after'),
    guardrail: z
      .object({
        found: z.array(z.string()).describe('What the input guardrail found: pii:cn_id, secret:jwt, …'),
        action: z.enum(['mask', 'block', 'require_approval']),
      })
      .nullable()
      .optional()
      .describe("The tool's input guardrail, when it finds something in this input (ADR 045)"),
    limit: z
      .object({
        max: z.number().int(),
        per: z.enum(['minute', 'hour', 'day']),
        scope: z.enum(['key', 'tenant']),
      })
      .nullable()
      .optional()
      .describe('a limit rule: the bucket the call would count against (a full bucket answers RATE_LIMITED)'),
    code: z
      .string()
      .nullable()
      .describe('refuse: the code the call would answer (POLICY_DENIED, INVALID_INPUT)'),
    reason: z.string().nullable().describe("refuse: why, in the caller's language"),
    issues: z.array(issueSchema).optional().describe('INVALID_INPUT: what is wrong with the input'),
  }),
);
export type ToolCallCheck = z.infer<typeof toolCallCheckSchema>;
