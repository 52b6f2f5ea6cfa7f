import { z } from 'zod';
import { RUN_EVENT_TYPES, RUN_STATUSES } from '../rules/vocabulary.js';
import { callResultSchema, callStatusSchema } from './approvals.schema.js';
import { instant } from './common.schema.js';
import { errorEnvelopeSchema } from './envelope.schema.js';
import { named } from './registry.js';

export const runStatusSchema = named('RunStatus', z.enum(RUN_STATUSES));
export const runEventTypeSchema = named('RunEventType', z.enum(RUN_EVENT_TYPES));

/** `POST /v1/agents/:agentType/runs`: a question for the agent, optionally continuing a session. */
export const startRunBodySchema = z.strictObject({
  input: z.string().min(1).max(32_000),
  sessionId: z.string().min(1).max(128).optional(),
});
export type StartRunBody = z.infer<typeof startRunBodySchema>;

/** Model tokens spent, as the provider reported them (0 for the offline demo model). */
export const runUsageSchema = named(
  'RunUsage',
  z.object({
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
    totalTokens: z.number().int(),
  }),
);
export type RunUsage = z.infer<typeof runUsageSchema>;

/** One tool call the model asked for in a step, and what became of it. */
export const runToolCallSchema = named(
  'RunToolCall',
  z.object({
    callId: z.string(),
    tool: z.string(),
    input: z
      .unknown()
      .describe("As the model sent it; redacted like audit inputs for readers other than the run's own key"),
    status: callStatusSchema,
    approvalId: z.string().nullable(),
    result: callResultSchema.nullable().describe('The envelope, once the call has one'),
    subRunId: z
      .string()
      .nullable()
      .describe(
        'A delegate_to_<agentType> call: the sub-agent run it started (readable at GET /v1/runs/:runId)',
      ),
  }),
);
export type RunToolCall = z.infer<typeof runToolCallSchema>;

/** One model turn: its text (if any) and the tool calls it asked for. */
export const runStepSchema = named(
  'RunStep',
  z.object({
    index: z.number().int(),
    text: z.string().nullable(),
    toolCalls: z.array(runToolCallSchema),
    usage: runUsageSchema,
    startedAt: instant(),
    finishedAt: instant().nullable(),
  }),
);
export type RunStep = z.infer<typeof runStepSchema>;

/** `GET /v1/runs/:runId`: a run of an agent, its steps and its answer. */
export const runViewSchema = named(
  'Run',
  z.object({
    runId: z.string(),
    tenantId: z.string(),
    agentType: z.string(),
    sessionId: z.string(),
    parentRunId: z.string().nullable(),
    status: runStatusSchema,
    model: z.string().describe('provider/model, e.g. "demo/demo-planner"'),
    input: z.string(),
    output: z.string().nullable(),
    error: errorEnvelopeSchema.nullable().describe('Why a failed run failed'),
    steps: z.array(runStepSchema),
    pendingApprovals: z
      .array(z.object({ approvalId: z.string(), callId: z.string(), tool: z.string() }))
      .describe("What an awaiting_approval run waits for: its own calls' approvals and its sub-agents'"),
    usage: runUsageSchema,
    createdAt: instant(),
    updatedAt: instant(),
    finishedAt: instant().nullable(),
    redacted: z
      .literal(true)
      .optional()
      .describe(
        "Read by someone other than the run's own key: the question, answer, model text and calls are redacted like audit inputs",
      ),
  }),
);
export type RunView = z.infer<typeof runViewSchema>;

/** `GET /v1/runs`: a page of runs, newest first. */
export const runPageSchema = named(
  'RunPage',
  z.object({ items: z.array(runViewSchema), nextCursor: z.string().nullable() }),
);
export type RunPage = z.infer<typeof runPageSchema>;

export const runListQuery = z.strictObject({
  tenantId: z.string().max(64).optional().describe('Platform admins: one tenant (default: all)'),
  agentType: z.string().max(64).optional(),
  status: runStatusSchema.optional(),
  sessionId: z.string().max(128).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
});
export type RunListQuery = z.infer<typeof runListQuery>;

/** `GET /v1/sessions/:sessionId/runs`: the conversation so far, oldest first. */
export const sessionRunsSchema = named(
  'SessionRuns',
  z.object({ sessionId: z.string(), runs: z.array(runViewSchema) }),
);
export type SessionRuns = z.infer<typeof sessionRunsSchema>;

/**
 * One event of a run (SSE `id:` is `id`, `event:` is `type`, `data:` is this object as JSON).
 * `data` by type: run_started {agentType, model, input, sessionId, parentRunId?, parentCallId?};
 * model_started {step}; model_finished {step, text, toolCalls: number, usage}; tool_call_requested
 * {step, callId, tool, input, label}; tool_partial {callId, partial | label, phase, runId? (a
 * delegation's child run)}; tool_result {step, callId, tool, status, result}; approval_requested
 * {callId, approvalId, tool, runId? (a sub-agent's approval)}; approval_decided {callId,
 * approvalId, decision}; text_delta {step, delta}; run_finished {status, output, error, usage, steps}.
 */
export const runEventSchema = named(
  'RunEvent',
  z.object({
    id: z.string(),
    runId: z.string(),
    type: runEventTypeSchema,
    at: instant(),
    data: z.record(z.string(), z.unknown()),
  }),
);
export type RunEvent = z.infer<typeof runEventSchema>;
