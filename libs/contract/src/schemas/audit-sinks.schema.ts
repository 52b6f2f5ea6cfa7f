import { z } from 'zod';
import { named } from './registry.js';

/** One SIEM sink as `GET /v1/audit/sinks` shows it (ADR 038). */
export const auditSinkSchema = named(
  'AuditSink',
  z.object({
    name: z.string(),
    kind: z.enum(['syslog', 'https']),
    target: z
      .string()
      .describe('`syslog+tls://host:port`, `syslog+tcp://host:port`, or the URL without its query'),
    format: z.string().describe('`rfc5424+json`, `rfc5424+cef`, `jsonl` or `splunk-hec`'),
    lag: z.number().int().describe('Committed events not yet delivered, all tenants'),
    deadLetters: z.number().int().describe('Events the receiver refused for good'),
    leaseHolder: z.string().nullable().describe('The gateway instance forwarding for this sink now'),
    leaseExpiresAt: z.string().nullable(),
    here: z
      .object({
        holding: z.boolean(),
        sent: z.number().int(),
        failures: z.number().int(),
        deadLettered: z.number().int(),
        lastError: z.string().nullable(),
        lastErrorAt: z.string().nullable(),
        lastDeliveredAt: z.string().nullable(),
        retryAt: z.string().nullable(),
      })
      .describe('What the answering gateway did for the sink since it started'),
  }),
);
export type AuditSink = z.infer<typeof auditSinkSchema>;

export const auditSinksSchema = named('AuditSinks', z.object({ sinks: z.array(auditSinkSchema) }));
export type AuditSinks = z.infer<typeof auditSinksSchema>;

/** An event a sink's receiver refused for good: its place in the chain and why (the event stays there). */
export const auditDeadLetterSchema = named(
  'AuditDeadLetter',
  z.object({
    tenantId: z.string(),
    seq: z.number().int(),
    event: z.string(),
    hash: z.string(),
    reason: z.string(),
    attempts: z.number().int(),
    failedAt: z.string(),
  }),
);
export type AuditDeadLetter = z.infer<typeof auditDeadLetterSchema>;

export const auditDeadLettersSchema = named(
  'AuditDeadLetters',
  z.object({ deadLetters: z.array(auditDeadLetterSchema) }),
);

/** Query of `GET /v1/audit/sinks/:name/dead-letters`. */
export const auditDeadLettersQuery = z.strictObject({
  tenantId: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type AuditDeadLettersQuery = z.infer<typeof auditDeadLettersQuery>;
