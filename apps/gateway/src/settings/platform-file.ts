import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CRYPTO_SUITES, redactionSettingsSchema } from '@toolgate/audit';
import { parseRange } from '@toolgate/egress';
import { platformAlarmsSchema } from '@toolgate/notifications';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { oidcFileSchema } from './oidc-file.js';
import { siemFileSchema } from './siem-file.js';

export const logLevelSchema = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

const ms = z.number().int();

/** Keys come from the environment only: the file names the variable, never the key itself. */
const environmentPlaceholder = z
  .string()
  .regex(/^\$\{[A-Z_][A-Z0-9_]*\}$/, 'write ${NAME_OF_AN_ENVIRONMENT_VARIABLE}, never the key itself');

const modelProviderSchema = z.strictObject({
  baseUrl: z
    .url({ protocol: /^https?$/ })
    .describe('The OpenAI-compatible API, e.g. `https://api.deepseek.com/v1`.'),
  apiKey: environmentPlaceholder
    .optional()
    .describe('The key, as `${NAME}` of an environment variable: keys come from the environment only.'),
  timeoutMs: ms.positive().max(900_000).optional().describe('Per attempt.'),
  maxRetries: z
    .number()
    .int()
    .min(0)
    .max(10)
    .optional()
    .describe('429, 5xx and connection failures are retried with backoff.'),
  region: z
    .string()
    .regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code, CN for mainland China')
    .optional()
    .describe(
      'Where the provider processes what it is sent (ISO 3166-1 alpha-2; `CN` is mainland China, `HK`, `MO`, `TW` are not). Not declared: outside mainland China for the cross-border guard of agent runs ([ADR 047](adr/047-regions-on-the-records-and-model-turns.md)).',
    ),
});

/** A browser origin, `scheme://host[:port]`, as the `Origin` header carries it: nothing after the port. */
export const originSchema = z.url({ protocol: /^https?$/ }).refine(isOrigin, {
  message: 'an origin is scheme://host[:port] in lower case, without path, query or fragment',
});

function isOrigin(value: string): boolean {
  try {
    return new URL(value).origin === value.replace(/\/$/, '');
  } catch {
    return false;
  }
}

const PROVIDER_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/** Providers by name (checked here, not as record keys, so each problem says what is wrong). */
const modelProvidersSchema = z.record(z.string(), modelProviderSchema).superRefine((providers, ctx) => {
  for (const name of Object.keys(providers)) {
    if (name === 'demo')
      ctx.addIssue({ code: 'custom', path: [name], message: 'demo is the built-in demo planner' });
    else if (!PROVIDER_NAME.test(name))
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: 'a provider name is lower case letters, digits, - and _',
      });
  }
});

/** A host name the egress policy allows (`crm.corp.example`), or its subdomains (`*.corp.example`). */
const egressHost = z
  .string()
  .max(253)
  .regex(/^(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.?$/, 'a host name, or *.domain for its subdomains');

/** An address range the egress policy allows: `10.20.0.0/16`, `fd00:1::/64` or one address. */
const egressCidr = z.string().superRefine((value, ctx) => {
  try {
    parseRange(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'an IP address or a CIDR range (10.20.0.0/16, fd00:1::/64)' });
  }
});

/** `audit.retention`: the platform's retention, archiving and purging (ADR 037). */
const retentionFileSchema = z.strictObject({
  defaultDays: z
    .number()
    .int()
    .min(0)
    .max(36_500)
    .optional()
    .describe(
      "Days a tenant's trail stays in the database once archived, when neither its file (`audit.retentionDays`) nor the admin API sets it.",
    ),
  minimumDays: z
    .number()
    .int()
    .min(0)
    .max(36_500)
    .optional()
    .describe(
      'The floor no tenant goes below (`RETENTION_BELOW_FLOOR`); the `dengbao3` profile raises it to 180 (网络安全法: network logs kept at least six months).',
    ),
  archiveIntervalMs: ms
    .nonnegative()
    .optional()
    .describe(
      'How often closed ranges are archived and then purged (0: only `POST /v1/admin/retention/run`).',
    ),
  wholeDays: z
    .boolean()
    .optional()
    .describe(
      'Archive only UTC days that are over, one file per tenant and day; off: the day so far too, up to its newest checkpoint.',
    ),
  purgeBatch: z
    .number()
    .int()
    .min(1)
    .max(100_000)
    .optional()
    .describe('Events deleted per purge transaction.'),
  purgePauseMs: ms
    .nonnegative()
    .max(60_000)
    .optional()
    .describe('The least pause between two purge transactions.'),
  workShare: z
    .number()
    .gt(0)
    .max(1)
    .optional()
    .describe(
      'Share of the wall clock archiving and purging may work: after each step (a page archived, a purge transaction) they rest in proportion, so calls served beside them keep their latency (1: no rest).',
    ),
});

/** `audit.archiveStore`: an S3-compatible bucket; keys come from the environment. */
const archiveStoreFileSchema = z.strictObject({
  s3: z
    .strictObject({
      endpoint: z
        .url({ protocol: /^https?$/ })
        .describe(
          "The platform's S3 endpoint, e.g. `https://oss-cn-hangzhou.aliyuncs.com` or `http://minio:9000`.",
        ),
      bucket: z
        .string()
        .min(3)
        .max(63)
        .describe('The bucket (created when missing; give it object lock for WORM).'),
      region: z.string().min(1).max(64).optional().describe('The region; `us-east-1` by default.'),
      prefix: z
        .string()
        .max(200)
        .regex(/^([A-Za-z0-9._-]+\/)*$/, 'empty, or path segments each ending in /')
        .optional()
        .describe('Keys go under this prefix, then the deployment’s name.'),
      accessKey: environmentPlaceholder.describe(
        'The access key id, as `${NAME}` of an environment variable.',
      ),
      secretKey: environmentPlaceholder.describe('The secret key, as `${NAME}` of an environment variable.'),
      pathStyle: z
        .boolean()
        .optional()
        .describe('`endpoint/bucket/key` addressing (MinIO and most private stores); on by default.'),
    })
    .describe(
      'The bucket, through the maintained `minio` client; its endpoint is the platform’s, never a tenant’s.',
    ),
});

/**
 * `config/toolgate.yaml`: platform settings that are not per tenant. Every key is optional; the
 * defaults are FILE_DEFAULTS (file-defaults.ts), and the file in the repository shows them.
 */
export const platformFileSchema = z.strictObject({
  server: z
    .strictObject({
      bodyLimitBytes: z
        .number()
        .int()
        .positive()
        .optional()
        .describe('The largest request body read; a larger one answers 413 `PAYLOAD_TOO_LARGE`.'),
      accessLog: z
        .boolean()
        .optional()
        .describe('One log line per request (costs throughput; the call metrics are always on).'),
      trustProxy: z
        .boolean()
        .optional()
        .describe(
          "Believe the `X-Forwarded-*` headers of the proxy in front (the client's address and protocol); only behind a proxy that sets them.",
        ),
    })
    .optional()
    .describe("The HTTP server. Where it listens is the environment's (`PORT`, `HOST`)."),
  database: z
    .strictObject({
      poolSize: z.number().int().positive().optional().describe('MySQL/MariaDB connections per gateway.'),
    })
    .optional()
    .describe('The database. Which one is `DATABASE_URL`.'),
  mcp: z
    .strictObject({
      allowedOrigins: z
        .array(originSchema)
        .max(100)
        .optional()
        .describe(
          "Browser origins (`scheme://host[:port]`) allowed to call `/mcp/*` besides the gateway's own (`TOOLGATE_PUBLIC_URL`, `http://HOST:PORT`). A request with any other `Origin` answers 403, so that no web page reaches the MCP server through its visitor's browser (DNS rebinding); requests without `Origin` (agents, SDKs, curl) are not affected. `TOOLGATE_MCP_ALLOWED_ORIGINS` replaces this list.",
        ),
      tasksPollMs: ms
        .positive()
        .max(60_000)
        .optional()
        .describe(
          'How often a waiting `tasks/result` re-reads its call when no wake-up comes (with Redis, a decision on any gateway ends the wait at once).',
        ),
    })
    .optional()
    .describe('The MCP endpoint (/mcp/:agentType).'),
  auth: z
    .strictObject({
      keyCacheTtlMs: ms
        .nonnegative()
        .optional()
        .describe('A key revoked on another gateway stops working within this time.'),
      oidc: oidcFileSchema
        .optional()
        .describe(
          "People sign in to the console through the company's OpenID Connect provider (code flow with PKCE). Unset: key sign-in only.",
        ),
    })
    .optional()
    .describe('API keys and sign-in.'),
  tenancy: z
    .strictObject({
      bindingCacheTtlMs: ms
        .nonnegative()
        .optional()
        .describe('A binding saved on another gateway is seen within this time.'),
    })
    .optional()
    .describe('Tenants and their bindings.'),
  compliance: z
    .strictObject({
      profile: z
        .enum(['off', 'dengbao3'])
        .optional()
        .describe(
          '`dengbao3`: the 等保 2.0 level 3 / PIPL profile. It makes the trail append-only in the database (triggers refuse UPDATE and DELETE on `audit_events` and `audit_checkpoints`, for every account) and separates the system, security and audit administrators (`platform_admin` only appoints them; every admin request is an event; [ADR 039](adr/039-separated-administrators-and-audit-alarms.md)); see docs/compliance/dengbao-pipl.md for what it covers and what is still to come. `TOOLGATE_COMPLIANCE_PROFILE` wins.',
        ),
      processingRecordsDays: z
        .number()
        .int()
        .min(1)
        .max(36_500)
        .optional()
        .describe(
          "Days a processing record's call count is kept after the last call it counted (PIPL 第五十六条: at least 3 years). Kept apart from the audit trail: its retention and purge never touch them. With the `dengbao3` profile, less than 1095 is refused at start ([ADR 047](adr/047-regions-on-the-records-and-model-turns.md)).",
        ),
    })
    .optional()
    .describe('Regulatory profiles.'),
  logLevel: logLevelSchema
    .optional()
    .describe("The log level; `TOOLGATE_LOG_LEVEL` wins. Nest's own start-up lines are `debug`."),
  audit: z
    .strictObject({
      auditL0: z
        .boolean()
        .optional()
        .describe('Also audit read-only (L0) calls; they never wait for the audit store.'),
      writeDeadlineMs: ms
        .positive()
        .max(30_000)
        .optional()
        .describe(
          'An L1+ call fails closed (`AUDIT_UNAVAILABLE`, the tool not run) when its `started` event is not durable by then.',
        ),
      finishedBeforeAnswer: z
        .boolean()
        .optional()
        .describe(
          'An L1+ call answers once its `finished` event is durable (`true`), or once it is queued to the group commit (`false`: one commit less on every call’s latency; for those milliseconds `GET /v1/calls/:callId` still says `running`, and a gateway that dies in them leaves the call `interrupted` in the trail although its caller got the answer; [ADR 043](adr/043-a-lean-chain.md)). `started` is durable before the tool runs either way.',
        ),
      maxBatch: z
        .number()
        .int()
        .min(1)
        .max(5_000)
        .optional()
        .describe('Events per group-commit transaction.'),
      writerLanes: z
        .number()
        .int()
        .min(1)
        .max(64)
        .optional()
        .describe("Tenants' chains spread over this many concurrent write transactions."),
      batchesInFlight: z
        .number()
        .int()
        .min(1)
        .max(16)
        .optional()
        .describe(
          'Batches of one lane taken at once: one written, the next built meanwhile ([ADR 017](adr/017-optimistic-audit-append.md)).',
        ),
      retryIntervalMs: ms
        .positive()
        .optional()
        .describe('Pause between retries of events that must not be lost (closing events).'),
      checkpointIntervalMs: ms
        .nonnegative()
        .optional()
        .describe('How often each tenant with new events gets a signed checkpoint.'),
      cryptoSuite: z
        .enum(CRYPTO_SUITES)
        .optional()
        .describe(
          'The trail’s cryptography: `standard` (HMAC-SHA256 links, Ed25519 checkpoints over a SHA-256 public digest) or `sm`, the national standards for a 密评 (HMAC-SM3 links, SM2 checkpoints per GB/T 32918.2 over an SM3 public digest; the SM2 key is `TOOLGATE_AUDIT_SM2_SIGNING_KEY`). Every event and checkpoint records its own algorithm, so a chain verifies across a switch in either direction ([ADR 040](adr/040-sm2-and-sm3-for-the-trail.md)). `TOOLGATE_AUDIT_CRYPTO_SUITE` wins.',
        ),
      archiveDir: z
        .string()
        .min(1)
        .optional()
        .describe(
          'Where every signed checkpoint is exported as it is signed, so verification still catches newest events deleted with their head and checkpoint rows ([ADR 030](adr/030-evidence-outside-the-gateway.md)); unset: `<TOOLGATE_DATA_DIR>/audit-archive`. Copies go to a subdirectory named by the deployment (12 hex of its database’s address), so deployments sharing a directory stay apart. Point every gateway of one database at the same directory, ideally one the database’s administrators cannot write.',
        ),
      redactionCacheTtlMs: ms
        .nonnegative()
        .optional()
        .describe("A tenant's redaction policy changed on another gateway applies within this time."),
      reconcileIntervalMs: ms
        .nonnegative()
        .optional()
        .describe('How often calls left open by a dead gateway are closed as interrupted.'),
      storedPayloadMaxBytes: z
        .number()
        .int()
        .min(4_096)
        .max(16_777_216)
        .optional()
        .describe(
          'Stored inputs and outputs (redacted JSON) larger than this are kept as `{capped, sha256, size, head}` with the first 4 KiB: in the trail, finished call records, idempotency records and runs ([ADR 036](adr/036-raw-personal-data-only-while-a-call-may-run.md)).',
        ),
      redaction: redactionSettingsSchema
        .optional()
        .describe(
          "The redaction of tenants whose file says nothing (a tenant file's `audit.redaction` wins).",
        ),
      retention: retentionFileSchema
        .optional()
        .describe(
          'How long the trail stays in the database, and its archiving and purging ([ADR 037](adr/037-retention-and-archive-that-still-verify.md)).',
        ),
      archiveStore: archiveStoreFileSchema
        .optional()
        .describe(
          'An S3-compatible bucket (AWS S3, MinIO, Ceph, Aliyun OSS, Tencent COS) instead of `archiveDir` for archived ranges and exported checkpoints; unset: the directory.',
        ),
    })
    .optional()
    .describe('The audit trail: its writer, checkpoints and default redaction.'),
  approvals: z
    .strictObject({
      expiryMs: ms
        .positive()
        .optional()
        .describe('A pending approval expires (`APPROVAL_EXPIRED`) after this.'),
      idempotencyTtlMs: ms.positive().optional().describe('How long an `Idempotency-Key` is remembered.'),
      pollMs: ms
        .positive()
        .optional()
        .describe(
          'How often a gateway expires approvals and runs approved calls a dead gateway left (Redis wakes it sooner).',
        ),
      orphanAfterMs: ms
        .positive()
        .optional()
        .describe('An approved call still queued this long is run by whichever gateway polls next.'),
      idempotencyWaitMs: ms
        .positive()
        .optional()
        .describe(
          'A request waits this long for another with the same `Idempotency-Key` (then 409 `IDEMPOTENCY_IN_PROGRESS`).',
        ),
      idempotencyPollMs: ms
        .positive()
        .optional()
        .describe('Pause between its looks at the other request (each look is an INSERT and a SELECT).'),
    })
    .optional()
    .describe('Approvals, parked calls and idempotency.'),
  quotas: z
    .strictObject({
      quotaCacheTtlMs: ms
        .nonnegative()
        .optional()
        .describe("A tenant's quotas changed on another gateway apply within this time."),
      maxTokensPerDay: z
        .number()
        .int()
        .positive()
        .nullable()
        .optional()
        .describe(
          "Ceiling of every tenant's `tokensPerDay` (`null`: none): tenant files above it are refused, tenants without a cap are held to it.",
        ),
      runsInFlightPerKey: z
        .number()
        .int()
        .min(1)
        .max(10_000)
        .optional()
        .describe(
          'Runs of one key not yet ended (running or awaiting approval), all gateways together; more answer 429 `RATE_LIMITED`.',
        ),
      runStreamsPerKey: z
        .number()
        .int()
        .min(1)
        .max(10_000)
        .optional()
        .describe('Open run event streams (SSE) of one key on one gateway.'),
      taskWaitsPerKey: z
        .number()
        .int()
        .min(1)
        .max(10_000)
        .optional()
        .describe('MCP `tasks/result` requests of one key waiting on one gateway.'),
    })
    .optional()
    .describe("Limits above the tenants' own quotas (which are in tenant files)."),
  runs: z
    .strictObject({
      leaseMs: ms
        .positive()
        .optional()
        .describe(
          'A gateway driving an agent run renews its lease; a lease this old is taken over by another gateway.',
        ),
      pollMs: ms
        .positive()
        .optional()
        .describe(
          'How often a gateway resumes parked runs whose approvals are decided and takes over stale leases.',
        ),
    })
    .optional()
    .describe('Agent runs.'),
  notifications: z
    .strictObject({
      pollMs: ms
        .positive()
        .optional()
        .describe('How often a gateway sends due messages and plans reminders and escalations.'),
      maxAttempts: z
        .number()
        .int()
        .min(1)
        .max(50)
        .optional()
        .describe('Attempts before a message goes to the dead letters (retried from the console).'),
      retryBaseMs: ms
        .positive()
        .optional()
        .describe('The first retry waits this long, each next one twice as long (at most an hour).'),
      sendTimeoutMs: ms.positive().max(60_000).optional().describe("One attempt's time limit."),
      callbackWindowMs: ms
        .positive()
        .max(3_600_000)
        .optional()
        .describe('Feishu card callbacks older or newer than this are refused.'),
      alarms: platformAlarmsSchema
        .extend({
          channels: platformAlarmsSchema.shape.channels.describe(
            'By name: `{type: webhook|dingtalk|feishu|wecom, url, tokenEnv?, secretEnv?}`, secrets as the names of `TOOLGATE_NOTIFY_*` variables. Every channel hears every alarm; none: the metric and the log line only.',
          ),
          minIntervalMs: platformAlarmsSchema.shape.minIntervalMs.describe(
            'One message per kind of alarm per this long; the next one says how many were held back.',
          ),
        })
        .optional()
        .describe(
          'Platform alarms ([ADR 039](adr/039-separated-administrators-and-audit-alarms.md)): when audit writes fail (calls fail closed) or a verification finds a chain broken, a metric (`toolgate_audit_alarms_total`), an error log line, and a message to these channels.',
        ),
    })
    .optional()
    .describe(
      'Approval messages to webhooks and IM robots (channels per tenant, in its file). Links in messages use `TOOLGATE_PUBLIC_URL`.',
    ),
  instances: z
    .strictObject({
      heartbeatMs: ms.positive().optional().describe('How often a gateway records that it is alive.'),
      staleAfterMs: ms
        .positive()
        .optional()
        .describe('A gateway silent this long is dead: its running calls become interrupted.'),
    })
    .optional()
    .describe('The gateways sharing one database.'),
  models: z
    .strictObject({
      providers: modelProvidersSchema
        .optional()
        .describe(
          'OpenAI-compatible model providers for agent runs, by name (lower case letters, digits, `-` and `_`); an agent type picks one with `model: {provider, name}`. `demo`, the offline demo planner, is built in. `TOOLGATE_MODEL_BASE_URL` and `TOOLGATE_MODEL_API_KEY` add one named `default`.',
        ),
    })
    .optional()
    .describe('Model providers for agent runs.'),
  siem: siemFileSchema
    .optional()
    .describe(
      'SIEM streaming: every committed audit event, all tenants, to syslog (RFC 5424 over TCP or TLS, JSON or CEF) and HTTPS (JSON lines or Splunk HEC, HMAC-signed) sinks, at least once ([ADR 038](adr/038-siem-streaming.md)).',
    ),
  egress: z
    .strictObject({
      allowHosts: z
        .array(egressHost)
        .max(1_000)
        .optional()
        .describe(
          'Host names allowed whatever they resolve to (`crm.corp.example`), or `*.domain` for its subdomains.',
        ),
      allowCidrs: z
        .array(egressCidr)
        .max(1_000)
        .optional()
        .describe(
          'Address ranges allowed (`10.20.0.0/16`, `fd00:1::/64`, or one address), by the address a name resolves to.',
        ),
    })
    .optional()
    .describe(
      "Where the gateway may send requests whose URL a tenant chose (upstream MCP servers and OpenAPI services, notification channels): public addresses only, unless allowed here. Loopback, private, CGNAT, link-local (the cloud metadata service) and other non-public ranges are refused; the gateway's own port always is ([ADR 026](adr/026-egress-policy.md)).",
    ),
});

export type PlatformFile = z.infer<typeof platformFileSchema>;

/** Raised with every problem of the environment and settings file at once. */
export class SettingsError extends Error {}

export const listIssues = (error: z.ZodError) =>
  error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`).join('\n');

/** `<configDir>/toolgate.yaml`, checked; `{}` when there is no such file. */
export function readPlatformFile(configDir: string): PlatformFile {
  const file = join(configDir, 'toolgate.yaml');
  if (!existsSync(file)) return {};
  const parsed = platformFileSchema.safeParse(parseYaml(readFileSync(file, 'utf8')) ?? {});
  if (!parsed.success) {
    throw new SettingsError(`${file}:\n${listIssues(parsed.error)}`);
  }
  return parsed.data;
}
