import { z } from 'zod';
import { PI_CLASSES, TOOL_LIST_FORMATS } from '../rules/vocabulary.js';
import { approvalModeSchema, riskLevelSchema } from './common.schema.js';
import { named } from './registry.js';

/** A JSON Schema (draft 2020-12) object, as the tools declare their input and output. */
const jsonSchemaObject = z.record(z.string(), z.unknown()).describe('A JSON Schema (draft 2020-12)');

/** `format=jsonschema` (the default): the platform's own listing, with the bound policy. */
export const jsonSchemaToolSchema = named(
  'JsonSchemaTool',
  z.object({
    name: z.string(),
    description: z.string(),
    inputSchema: jsonSchemaObject,
    outputSchema: jsonSchemaObject.optional(),
    risk: z.object({
      level: riskLevelSchema,
      approvalRequired: z.boolean(),
      dataDomains: z.array(z.string()).readonly(),
      estimatedDurationMs: z.number().optional(),
    }),
    timeoutMs: z.number().int(),
    approval: approvalModeSchema,
    deferred: z.boolean(),
    endsTurn: z.union([z.boolean(), z.literal('dynamic')]).describe('"dynamic": the tool decides per call'),
    availableInSubagents: z.boolean(),
    personalInformation: z
      .array(z.enum(PI_CLASSES))
      .readonly()
      .describe(
        'The personal-information classes its input or output fields are marked with (x-toolgate-pi)',
      ),
  }),
);
export type JsonSchemaTool = z.infer<typeof jsonSchemaToolSchema>;

/** `format=openai`: OpenAI function calling. */
export const openAiToolSchema = named(
  'OpenAiTool',
  z.object({
    type: z.literal('function'),
    function: z.object({
      name: z.string(),
      description: z.string(),
      parameters: jsonSchemaObject,
      strict: z.boolean(),
    }),
  }),
);

/** `format=anthropic`: Anthropic tool use. */
export const anthropicToolSchema = named(
  'AnthropicTool',
  z.object({ name: z.string(), description: z.string(), input_schema: jsonSchemaObject }),
);

/** `format=mcp`: an MCP `tools/list` entry; risk becomes annotations. */
export const mcpToolSchema = named(
  'McpTool',
  z.object({
    name: z.string(),
    title: z.string(),
    description: z.string(),
    inputSchema: jsonSchemaObject,
    outputSchema: jsonSchemaObject.optional(),
    annotations: z.object({
      title: z.string(),
      readOnlyHint: z.boolean(),
      destructiveHint: z.boolean(),
      idempotentHint: z.boolean().optional(),
      openWorldHint: z.boolean(),
    }),
  }),
);

/** An item of `GET /v1/agents/:agentType/tools`, in the format asked for. */
export const toolListItemSchema = named(
  'ToolListItem',
  z.union([jsonSchemaToolSchema, openAiToolSchema, anthropicToolSchema, mcpToolSchema]),
);
export type ToolListItem = z.infer<typeof toolListItemSchema>;

/** The model an agent type's runs think with, as shown to people. */
export const agentModelInfoSchema = named(
  'AgentModelInfo',
  z.object({
    name: z.string().describe('provider/model, e.g. "demo/demo-planner"'),
    label: z.string().describe('How to show it; the demo planner says it is offline and deterministic'),
    offline: z.boolean().describe('The built-in demo planner: no language model, picks tools by keywords'),
  }),
);
export type AgentModelInfo = z.infer<typeof agentModelInfoSchema>;

/** An item of `GET /v1/agents`: an agent type the caller may use. */
export const agentTypeSummarySchema = named(
  'AgentTypeSummary',
  z.object({
    agentType: z.string(),
    description: z.string(),
    version: z.number().int(),
    tools: z.number().int().describe('How many tools are bound'),
    model: agentModelInfoSchema,
  }),
);
export type AgentTypeSummary = z.infer<typeof agentTypeSummarySchema>;

/** An item of `GET /v1/admin/tools`: a contract with its implementations and who binds it. */
export const catalogToolSchema = named(
  'CatalogTool',
  jsonSchemaToolSchema.extend({
    dynamic: z.boolean(),
    label: z.string().optional(),
    contractHash: z.string(),
    implementations: z.array(z.object({ name: z.string(), source: z.string(), definitionHash: z.string() })),
    boundBy: z.array(
      z.object({
        tenantId: z.string(),
        agentType: z.string(),
        implementation: z.string().nullable(),
        version: z.number().int(),
      }),
    ),
  }),
);
export type CatalogTool = z.infer<typeof catalogToolSchema>;

/** Query of `GET /v1/agents/:agentType/tools`. */
export const toolListQuery = z.strictObject({
  format: z.enum(TOOL_LIST_FORMATS).default('jsonschema'),
  include: z.enum(['deferred']).optional(),
});
export type ToolListQuery = z.infer<typeof toolListQuery>;

/**
 * Body of `POST .../invoke`: the tool input and the session; nothing the platform owns. Call ids
 * are minted by the platform (CONTRACT.md changelog v1.2): a `callId` here is refused as an unknown
 * field; `Idempotency-Key` is how a client makes a retry the same call.
 */
export const invokeBody = z.strictObject({
  input: z
    .unknown()
    .optional()
    .describe('The tool input, checked against the tool inputSchema ({} when absent)'),
  sessionId: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,128}$/)
    .optional()
    .describe('Groups calls into a session (approval memory, idempotency keys)'),
});
export type InvokeBody = z.infer<typeof invokeBody>;

/** Query of `POST .../invoke`. */
export const invokeQuery = z.strictObject({
  view: z.enum(['full', 'model']).default('full'),
});
export type InvokeQuery = z.infer<typeof invokeQuery>;
