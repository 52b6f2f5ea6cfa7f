import { z } from 'zod';
import { ERROR_CODES } from '../rules/vocabulary.js';
import { named } from './registry.js';

export const errorCodeSchema = named('ErrorCode', z.enum(ERROR_CODES));

/** The failure half of every JSON answer (docs/CONTRACT.md "Every JSON body is an envelope"). */
export const errorEnvelopeSchema = named(
  'ErrorEnvelope',
  z.object({
    error: z.string().describe('Readable text, in the caller’s language'),
    // A platform code, or a tool's own code (a tool failure may carry one).
    code: z
      .union([errorCodeSchema, z.string()])
      .describe(`One of ${ERROR_CODES.join(', ')}; a tool failure may carry the tool’s own code`),
    suggestedAction: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
    callId: z.string().optional(),
    approvalId: z.string().optional(),
  }),
);
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** The success half: `{ data, status: "ok" }`. */
export const okEnvelopeSchema = <T extends z.ZodType>(data: T) => z.object({ data, status: z.literal('ok') });
export interface OkEnvelope<T> {
  data: T;
  status: 'ok';
}
