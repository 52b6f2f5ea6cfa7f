import { TOOL_LIST_FORMATS } from '@toolgate/toolkit';
import { z } from 'zod';

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
