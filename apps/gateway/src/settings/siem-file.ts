import { z } from 'zod';

const envName = z
  .string()
  .regex(/^[A-Z_][A-Z0-9_]*$/, 'the NAME of an environment variable holding the secret');

const SINK_NAME = /^[a-z][a-z0-9_-]{0,63}$/;

const tlsSchema = z
  .strictObject({
    caFile: z
      .string()
      .min(1)
      .optional()
      .describe('PEM file of the CA the receiver’s certificate must chain to (default: the system’s CAs).'),
    certFile: z
      .string()
      .min(1)
      .optional()
      .describe('PEM client certificate, for receivers that authenticate senders.'),
    keyFile: z.string().min(1).optional().describe('PEM key of the client certificate.'),
    serverName: z
      .string()
      .min(1)
      .max(253)
      .optional()
      .describe('syslog only: the name the receiver’s certificate must carry, when not its host.'),
  })
  .refine((t) => !t.certFile === !t.keyFile, 'certFile and keyFile go together');

const sinkCommon = {
  name: z
    .string()
    .regex(SINK_NAME, 'lower case letters, digits, - and _, starting with a letter')
    .describe('The sink’s stable name: its cursors, lease and dead letters are kept under it.'),
  batchSize: z.number().int().min(1).max(5_000).optional().describe('Events per batch (default 200).'),
  maxRecordBytes: z
    .number()
    .int()
    .min(1_024)
    .max(1_048_576)
    .optional()
    .describe(
      'Records longer than this carry input, details and output summary as size + SHA-256 (default 7168: rsyslog takes 8 KiB).',
    ),
  timeoutMs: z
    .number()
    .int()
    .positive()
    .max(120_000)
    .optional()
    .describe('One attempt’s time limit (default 10000).'),
};

const syslogSinkSchema = z.strictObject({
  kind: z.literal('syslog'),
  ...sinkCommon,
  host: z.string().min(1).max(253).describe('The receiver’s host (through the egress policy).'),
  port: z.number().int().min(1).max(65_535).describe('Its port (6514 is TLS syslog’s, RFC 5425).'),
  tls: tlsSchema.optional().describe('TLS (RFC 5425); plain TCP (RFC 6587, octet counting) when absent.'),
  payload: z
    .enum(['json', 'cef'])
    .optional()
    .describe('The message: the record as JSON (default) or an ArcSight CEF line.'),
  facility: z.number().int().min(0).max(23).optional().describe('Syslog facility (default 13, log audit).'),
  structuredDataId: z
    .string()
    .regex(/^[!#-<>-Z\\^-~]{1,32}@\d+(\.\d+)*$/, 'name@<private enterprise number>')
    .optional()
    .describe(
      'SD-ID of the element with the chain fields (default `toolgate@32473`, RFC 5612’s example number).',
    ),
});

const httpsSinkSchema = z.strictObject({
  kind: z.literal('https'),
  ...sinkCommon,
  url: z
    .url({ protocol: /^https$/ })
    .describe('The receiver (https only; through the egress policy, no redirects).'),
  format: z
    .enum(['jsonl', 'splunk-hec'])
    .optional()
    .describe('`jsonl` (default): one record per line; `splunk-hec`: one HEC event per line.'),
  hmacSecretEnv: envName
    .optional()
    .describe('Environment variable holding the secret of `X-Toolgate-Signature` (HMAC-SHA256).'),
  splunkTokenEnv: envName
    .optional()
    .describe('Environment variable holding the Splunk HEC token (`Authorization: Splunk …`).'),
  tls: tlsSchema.optional().describe('A private CA or a client certificate.'),
});

/** `siem:` of `config/toolgate.yaml`: where every committed audit event is streamed (ADR 038). */
export const siemFileSchema = z.strictObject({
  sinks: z
    .array(z.discriminatedUnion('kind', [syslogSinkSchema, httpsSinkSchema]))
    .max(16)
    .refine((s) => new Set(s.map((x) => x.name)).size === s.length, 'sink names must differ')
    .optional()
    .describe(
      'The sinks; none by default. Each is `{name, kind: syslog, host, port, tls?, payload?, facility?, structuredDataId?}` or `{name, kind: https, url, format?, hmacSecretEnv?, splunkTokenEnv?, tls?}`, both with `batchSize`, `maxRecordBytes`, `timeoutMs`; see [operations](operations.md#siem-streaming).',
    ),
  intervalMs: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('How often the forwarder looks for new events.'),
  leaseMs: z
    .number()
    .int()
    .min(1_000)
    .optional()
    .describe('One gateway forwards per sink; a lease not renewed this long is taken over.'),
  retryBaseMs: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('The first retry after a failure waits this long, each next one twice as long…'),
  retryMaxMs: z.number().int().positive().optional().describe('…up to this.'),
  maxAttempts: z
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .describe(
      'Failures in a row the receiver answered (HTTP 5xx) before the batch is split to find the record it cannot take (then a dead letter).',
    ),
  alarmAfterFailures: z
    .number()
    .int()
    .min(0)
    .max(1000)
    .optional()
    .describe(
      'Failed attempts in a row (unreachable, refused, 5xx) after which a sink raises the `siem_sink_failing` audit alarm (metric, log line, `notifications.alarms` channels); once per incident, again after a delivery. 0: never.',
    ),
});

export type SiemFile = z.infer<typeof siemFileSchema>;
