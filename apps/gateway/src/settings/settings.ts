import type { ApprovalsOptions } from '@toolgate/approvals';
import type { CallsOptions } from '@toolgate/calls';
import { PROCESSING_RECORDS_FLOOR_DAYS } from '@toolgate/data-protection';
import type { RunsOptions } from '@toolgate/runs';
import {
  COMPLIANCE_RETENTION_FLOOR_DAYS,
  CRYPTO_SUITES,
  tenantAuditSection,
  type AuditOptions,
  type S3ArchiveOptions,
  type SiemOptions,
} from '@toolgate/audit';
import { expandVariables } from '@toolgate/tenancy';
import type { AuthOptions } from '@toolgate/auth';
import {
  defaultDatabaseUrl,
  deploymentRedisPrefix,
  parseDatabaseUrl,
  type InstanceOptions,
} from '@toolgate/database';
import type { EgressOptions } from '@toolgate/egress';
import type { ModelsOptions } from '@toolgate/models';
import type { NotificationsOptions } from '@toolgate/notifications';
import type { QuotasOptions } from '@toolgate/quotas';
import type { TenancyOptions } from '@toolgate/tenancy';
import { TENANT_FILE_SECTIONS, tenantComplianceFor, tenantRetentionFloor } from './tenant-file-sections.js';
import { DEFAULT_UPSTREAMS_OPTIONS, type UpstreamsOptions } from '@toolgate/upstreams';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { LogFormat } from '../telemetry/log-output.js';
import { FILE_DEFAULTS } from './file-defaults.js';
import { loadAuditKeyMaterial, type AuditKeyMaterial } from './key-material.js';
import { modelsSettings } from './model-settings.js';
import { oidcSettings } from './oidc-settings.js';
import { siemSettings } from './siem-settings.js';
import {
  listIssues,
  logLevelSchema,
  originSchema,
  readPlatformFile,
  SettingsError,
  type PlatformFile,
} from './platform-file.js';

export { SettingsError } from './platform-file.js';

/** The generated platform admin key, in the data directory beside the audit key material. */
export const ADMIN_KEY_FILE = 'admin-key';
/** Where signed checkpoints are exported when `audit.archiveDir` is unset (ADR 030). */
export const AUDIT_ARCHIVE_DIR = 'audit-archive';

const booleanEnv = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no']))
  .transform((v) => ['1', 'true', 'on', 'yes'].includes(v))
  .meta({ accepts: 'on or off (also 1/0, true/false, yes/no)' });

/** Everything the gateway needs to start, resolved from the environment and `config/toolgate.yaml`. */
export interface Settings {
  readonly server: {
    readonly port: number;
    readonly host: string;
    readonly bodyLimitBytes: number;
    readonly accessLog: boolean;
    readonly trustProxy: boolean;
    /** The console's production build, served at /console. */
    readonly consoleDir: string;
    /** `TOOLGATE_PUBLIC_URL` when it is set: the OpenAPI document's server. */
    readonly publicUrl?: string;
  };
  readonly database: {
    readonly url: string;
    readonly poolSize: number;
    /** `DATABASE_MIGRATION_URL`: the account migrations run with, when not the runtime one. */
    readonly migrationUrl?: string;
    /** `DATABASE_PURGE_URL`: the account retention's purge deletes archived events with (ADR 037). */
    readonly purgeUrl?: string;
  };
  /** Regulatory profiles (`compliance.profile`, `TOOLGATE_COMPLIANCE_PROFILE`). */
  readonly compliance: {
    readonly profile: 'off' | 'dengbao3';
    /** Days processing counts are kept after their last call (≥ 1095 under the profile; ADR 047). */
    readonly processingRecordsDays: number;
  };
  /** The MCP endpoint's HTTP rules. */
  readonly mcp: {
    /**
     * Browser origins allowed on /mcp/* (the `Origin` header, exact match): the configured ones
     * and the gateway's own. A request with another Origin answers 403; one without is let through.
     */
    readonly allowedOrigins: readonly string[];
    /** How often a waiting `tasks/result` re-reads its call when no wake-up comes. */
    readonly tasksPollMs: number;
  };
  readonly auth: AuthOptions;
  readonly tenancy: TenancyOptions;
  readonly audit: AuditOptions & { readonly keySource: string };
  readonly instances: InstanceOptions;
  /** The approvals lib's options and the calls lib's idempotency ones: one section of the file. */
  readonly approvals: ApprovalsOptions & CallsOptions;
  readonly quotas: QuotasOptions;
  readonly models: ModelsOptions;
  readonly runs: RunsOptions;
  readonly upstreams: UpstreamsOptions;
  readonly notifications: NotificationsOptions;
  /** Where requests to tenant-chosen URLs may go (ADR 026). */
  readonly egress: EgressOptions;
  /** SIEM sinks the audit trail is streamed to (ADR 038). */
  readonly siem: SiemOptions;
  /** `/metrics`: the scraper's bearer token (TOOLGATE_METRICS_TOKEN); unset, platform admins only. */
  readonly ops: { readonly metricsToken?: string };
  readonly dataDir: string;
  readonly locale: 'zh-CN' | 'en';
  readonly logLevel: string;
  /** `pretty` when stdout is a terminal, else `json` (TOOLGATE_LOG_FORMAT). */
  readonly logFormat: LogFormat;
}

/**
 * The environment the gateway reads, every variable described: `npm run docs:config` writes
 * docs/configuration.md from it and from the settings file's schema (platform-file.ts).
 */
export const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000).describe('The HTTP port.'),
  HOST: z
    .string()
    .min(1)
    .default('127.0.0.1')
    .describe('The address the gateway binds (`0.0.0.0` for every interface).'),
  DATABASE_URL: z.string().min(1).optional().meta({
    description: '`sqlite:<path>`, or `mysql://user:pass@host:3306/db` for MySQL/MariaDB.',
    unset: 'the embedded SQLite file `<TOOLGATE_DATA_DIR>/toolgate.sqlite`',
  }),
  DATABASE_MIGRATION_URL: z.string().min(1).optional().meta({
    description:
      "Run migrations (and install the compliance profile's triggers) through this account, e.g. `mysql://toolgate_ddl:…@host:3306/toolgate`; `DATABASE_URL` then needs no schema rights, and only INSERT/SELECT on the trail (docs/operations.md).",
    unset: 'migrations run through `DATABASE_URL`',
  }),
  DATABASE_PURGE_URL: z.string().min(1).optional().meta({
    description:
      "The account retention's purge deletes archived events with (MySQL/MariaDB); under the `dengbao3` profile only it may, within the purge window ([ADR 037](adr/037-retention-and-archive-that-still-verify.md)).",
    unset: 'purges run through `DATABASE_URL`; under the profile on MySQL/MariaDB nothing is purged',
  }),
  TOOLGATE_COMPLIANCE_PROFILE: z.enum(['off', 'dengbao3']).optional().meta({
    description: 'The regulatory profile (see `compliance.profile`).',
    unset: '`compliance.profile` of `toolgate.yaml`',
  }),
  TOOLGATE_ADMIN_KEY: z.string().min(16, 'must be at least 16 characters').optional().meta({
    description: 'A platform-admin API key with this secret exists after boot.',
    unset: 'the key kept in `<TOOLGATE_DATA_DIR>/admin-key` (mode 0600), made at the first boot',
  }),
  TOOLGATE_CONFIG_DIR: z
    .string()
    .min(1)
    .default('config')
    .describe('Where `toolgate.yaml` (platform settings) and `tenants/*.yaml` are.'),
  TOOLGATE_LOCALE: z
    .enum(['zh-CN', 'en'])
    .default('zh-CN')
    .describe('The default language of messages; `Accept-Language` overrides it per request.'),
  TOOLGATE_DEMO: booleanEnv.optional().meta({
    description: 'The demo tenants `acme` and `globex` with their in-process backends.',
    unset: 'on for SQLite, off for MySQL',
  }),
  TOOLGATE_WATCH_TENANT_FILES: booleanEnv.optional().meta({
    description:
      "Follow `tenants/*.yaml`: a changed file is re-imported (as new versions) unless someone changed its tenant through the console or the API since the file's last import; the log says why not ([ADR 029](adr/029-tenant-files-followed.md)).",
    unset: 'on for SQLite, off for MySQL',
  }),
  TOOLGATE_LOG_LEVEL: logLevelSchema.optional().meta({
    description: "The log level; Nest's own start-up lines are `debug`.",
    unset: '`logLevel` of `toolgate.yaml`',
  }),
  TOOLGATE_LOG_FORMAT: z.enum(['pretty', 'json']).optional().meta({
    description: '`json`: one JSON object a line (pino); `pretty`: one readable line per event.',
    unset: '`pretty` on a terminal, else `json`',
  }),
  TOOLGATE_DATA_DIR: z
    .string()
    .min(1)
    .default('data')
    .describe(
      'The embedded database and, when the environment does not give them, the audit key material and the kept platform admin key.',
    ),
  TOOLGATE_CONSOLE_DIR: z
    .string()
    .min(1)
    .default('apps/console/dist')
    .describe('The console build served at `/console`.'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'use redis://host:6379')
    .optional()
    .meta({
      description:
        'Share quota counters and approval wake-ups between gateways: `redis://host:6379` (or `rediss://`).',
      unset: 'counters per process, wake-ups by polling',
    }),
  TOOLGATE_REDIS_PREFIX: z.string().min(1).max(64).optional().meta({
    description: 'The Redis key namespace.',
    unset:
      "`toolgate:<hash>` (of the database's address and name), one namespace per deployment ([ADR 028](adr/028-closing-the-lower-trust-gaps.md))",
  }),
  TOOLGATE_INSTANCE_ID: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,128}$/)
    .optional()
    .meta({
      description:
        "This gateway's name among replicas; a stable one lets a restarted gateway close its own interrupted calls at once.",
      unset: '`host:pid:boot`',
    }),
  TOOLGATE_MODEL_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe('An OpenAI-compatible model provider named `default`, without a settings file.'),
  TOOLGATE_MODEL_API_KEY: z.string().min(1).optional().describe('The API key of that provider.'),
  TOOLGATE_MODEL_REGION: z
    .string()
    .regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code, CN for mainland China')
    .optional()
    .meta({
      description:
        'Where that provider processes what it is sent (ISO 3166-1 alpha-2, `CN` mainland China), for the cross-border guard.',
      unset: 'not declared: outside mainland China under the profile',
    }),
  TOOLGATE_MODEL: z
    .string()
    .regex(/^[a-z][a-z0-9_-]{0,31}\/\S+$/, 'use provider/model, e.g. default/qwen-plus')
    .optional()
    .meta({
      description: 'The model of agent types that name none, `provider/model` (`default/qwen-plus`).',
      unset: '`demo/demo-planner`',
    }),
  TOOLGATE_PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .meta({
      description:
        "Where people reach this gateway (behind a proxy: its public address): links in approval notifications, the OpenAPI document's server, an origin allowed on `/mcp/*`.",
      unset: '`http://HOST:PORT`',
    }),
  TOOLGATE_UPSTREAM_REFRESH_MS: z.coerce.number().int().min(100).max(86_400_000).optional().meta({
    description: 'How often upstream tool sources are compared with their pinned definitions.',
    default: DEFAULT_UPSTREAMS_OPTIONS.refreshIntervalMs,
  }),
  TOOLGATE_MCP_ALLOWED_ORIGINS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .pipe(z.array(originSchema).max(100))
    .optional()
    .describe('Origins, comma-separated; replaces `mcp.allowedOrigins` of `toolgate.yaml`.'),
  TOOLGATE_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').max(256).optional().meta({
    description: 'The bearer token a Prometheus scraper sends to read `/metrics`.',
    unset: "platform admins' keys only",
  }),
  // Read where they are used (key-material.ts, before the settings; telemetry/tracing.ts, before the
  // gateway is built), and declared here so that this schema lists the whole environment.
  TOOLGATE_AUDIT_SIGNING_KEY: z.string().optional().meta({
    description:
      'The Ed25519 private key (PKCS#8 PEM) that signs audit checkpoints; the same on every gateway of one database.',
    unset: '`<TOOLGATE_DATA_DIR>/audit-signing-key.pem`, made at the first boot',
  }),
  TOOLGATE_AUDIT_SIGNING_KEY_FILE: z
    .string()
    .optional()
    .describe('A file holding that key, when `TOOLGATE_AUDIT_SIGNING_KEY` is unset.'),
  TOOLGATE_AUDIT_SM2_SIGNING_KEY: z.string().optional().meta({
    description:
      'The SM2 private key (PKCS#8 or SEC1 PEM, on the SM2 curve) that signs audit checkpoints under `audit.cryptoSuite: sm` ([ADR 040](adr/040-sm2-and-sm3-for-the-trail.md)); the same on every gateway of one database, and kept after a switch back to `standard` so its checkpoints still verify.',
    unset: '`<TOOLGATE_DATA_DIR>/audit-signing-key-sm2.pem`, made at the first boot with the `sm` suite',
  }),
  TOOLGATE_AUDIT_SM2_SIGNING_KEY_FILE: z
    .string()
    .optional()
    .describe('A file holding that key, when `TOOLGATE_AUDIT_SM2_SIGNING_KEY` is unset.'),
  TOOLGATE_AUDIT_CRYPTO_SUITE: z.enum(CRYPTO_SUITES).optional().meta({
    description: 'The audit trail’s cryptography (see `audit.cryptoSuite`).',
    unset: '`audit.cryptoSuite` of `toolgate.yaml`',
  }),
  TOOLGATE_AUDIT_SECRET: z.string().optional().meta({
    description:
      "Keys the audit chain's links and the redaction fingerprints; the same on every gateway of one database, and backed up: losing it makes every keyed link unverifiable.",
    unset: '`<TOOLGATE_DATA_DIR>/audit-secret`, made at the first boot',
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().optional().meta({
    description:
      'Export OpenTelemetry traces over OTLP/HTTP to `<endpoint>/v1/traces` (e.g. `http://otel-collector:4318`); the standard `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_EXPORTER_OTLP_TIMEOUT`, `OTEL_BSP_*` and `OTEL_TRACES_SAMPLER` / `_ARG` apply.',
    unset: 'no tracing at all ([ADR 019](adr/019-opentelemetry.md))',
  }),
  OTEL_SERVICE_NAME: z
    .string()
    .optional()
    .meta({ description: "The traces' service name.", unset: '`toolgate-gateway`' }),
});

/**
 * Reads the settings. Environment variables are CONTRACT.md's; the rest comes from
 * `<TOOLGATE_CONFIG_DIR>/toolgate.yaml` over FILE_DEFAULTS (file-defaults.ts).
 */
export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    throw new SettingsError(`Invalid environment:\n${listIssues(parsed.error)}`);
  }
  const e = parsed.data;
  const databaseUrl = e.DATABASE_URL ?? defaultDatabaseUrl(e.TOOLGATE_DATA_DIR);
  const target = parseDatabaseUrl(databaseUrl);
  const file = readPlatformFile(e.TOOLGATE_CONFIG_DIR);
  const redisPrefix = e.TOOLGATE_REDIS_PREFIX ?? deploymentRedisPrefix(target);
  const profile =
    e.TOOLGATE_COMPLIANCE_PROFILE ?? file.compliance?.profile ?? FILE_DEFAULTS.compliance.profile;
  const processingRecordsDays =
    file.compliance?.processingRecordsDays ?? FILE_DEFAULTS.compliance.processingRecordsDays;
  if (profile === 'dengbao3' && processingRecordsDays < PROCESSING_RECORDS_FLOOR_DAYS)
    throw new SettingsError(
      `compliance.processingRecordsDays is ${processingRecordsDays}: the dengbao3 profile keeps processing records at least ${PROCESSING_RECORDS_FLOOR_DAYS} days (PIPL 第五十六条, 3 years)`,
    );
  const compliance: Settings['compliance'] = { profile, processingRecordsDays };
  const audit = auditSettings(
    { ...file.audit, ...optional('cryptoSuite', e.TOOLGATE_AUDIT_CRYPTO_SUITE) },
    loadAuditKeyMaterial(
      env,
      e.TOOLGATE_DATA_DIR,
      e.TOOLGATE_AUDIT_CRYPTO_SUITE ?? file.audit?.cryptoSuite ?? FILE_DEFAULTS.audit.cryptoSuite,
    ),
    e.TOOLGATE_DATA_DIR,
    deploymentRedisPrefix(target).slice('toolgate:'.length),
    { profile, purgeUrl: e.DATABASE_PURGE_URL, env },
  );
  const quotas: QuotasOptions = {
    redisUrl: e.REDIS_URL,
    redisPrefix,
    ...FILE_DEFAULTS.quotas,
    ...file.quotas,
  };
  return {
    server: {
      port: e.PORT,
      host: e.HOST,
      ...FILE_DEFAULTS.server,
      ...file.server,
      consoleDir: e.TOOLGATE_CONSOLE_DIR,
      ...optional('publicUrl', e.TOOLGATE_PUBLIC_URL),
    },
    database: {
      url: databaseUrl,
      ...FILE_DEFAULTS.database,
      ...file.database,
      ...optional('migrationUrl', e.DATABASE_MIGRATION_URL),
      ...optional('purgeUrl', e.DATABASE_PURGE_URL),
    },
    compliance,
    mcp: {
      allowedOrigins: mcpOrigins(
        e.TOOLGATE_MCP_ALLOWED_ORIGINS ?? file.mcp?.allowedOrigins ?? FILE_DEFAULTS.mcp.allowedOrigins,
        e,
      ),
      tasksPollMs: file.mcp?.tasksPollMs ?? FILE_DEFAULTS.mcp.tasksPollMs,
    },
    auth: {
      adminKey: e.TOOLGATE_ADMIN_KEY,
      generateAdminKey: !e.TOOLGATE_ADMIN_KEY,
      adminKeyFile: join(e.TOOLGATE_DATA_DIR, ADMIN_KEY_FILE),
      keyCacheTtlMs: file.auth?.keyCacheTtlMs ?? FILE_DEFAULTS.auth.keyCacheTtlMs,
      ...optional('oidc', oidcSettings(file.auth?.oidc, env)),
      separatedDuties: compliance.profile === 'dengbao3',
    },
    tenancy: {
      configDir: e.TOOLGATE_CONFIG_DIR,
      // CONTRACT.md: the demo is on for SQLite and off for MySQL unless TOOLGATE_DEMO says otherwise.
      demo: e.TOOLGATE_DEMO ?? target.kind === 'sqlite',
      // ADR 029: on where one gateway owns its database (SQLite); several gateways on MySQL may
      // carry files of different releases during a rolling update.
      watchFiles: e.TOOLGATE_WATCH_TENANT_FILES ?? target.kind === 'sqlite',
      ...FILE_DEFAULTS.tenancy,
      ...file.tenancy,
      // A tenant file's retention is refused below the floor (ADR 037); its compliance section may
      // add parts of the profile, never turn the platform's off (ADR 048).
      sections: {
        ...TENANT_FILE_SECTIONS,
        audit: tenantAuditSection(audit.retention.floorDays),
        compliance: tenantComplianceFor(profile),
      },
      retentionFloorOf: tenantRetentionFloor,
      // Tenant files are refused above the platform's ceilings when they are saved.
      ceilings: { maxTokensPerDay: quotas.maxTokensPerDay },
    },
    audit,
    instances: { instanceId: e.TOOLGATE_INSTANCE_ID, ...FILE_DEFAULTS.instances, ...file.instances },
    approvals: {
      redisUrl: e.REDIS_URL,
      redisPrefix,
      ...FILE_DEFAULTS.approvals,
      ...file.approvals,
    },
    quotas,
    models: modelsSettings(file.models, e, env),
    runs: { ...FILE_DEFAULTS.runs, ...file.runs },
    upstreams: {
      refreshIntervalMs: e.TOOLGATE_UPSTREAM_REFRESH_MS ?? DEFAULT_UPSTREAMS_OPTIONS.refreshIntervalMs,
      refresh: DEFAULT_UPSTREAMS_OPTIONS.refresh,
    },
    notifications: {
      publicUrl: e.TOOLGATE_PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`,
      ...FILE_DEFAULTS.notifications,
      ...file.notifications,
      alarms: { ...FILE_DEFAULTS.notifications.alarms, ...file.notifications?.alarms },
    },
    egress: { ...FILE_DEFAULTS.egress, ...file.egress },
    siem: siemSettings(file.siem, env),
    ops: { ...optional('metricsToken', e.TOOLGATE_METRICS_TOKEN) },
    dataDir: e.TOOLGATE_DATA_DIR,
    locale: e.TOOLGATE_LOCALE,
    logLevel: e.TOOLGATE_LOG_LEVEL ?? file.logLevel ?? FILE_DEFAULTS.logLevel,
    logFormat: e.TOOLGATE_LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json'),
  };
}

/**
 * The origins allowed on /mcp/*: the configured ones, the origin of TOOLGATE_PUBLIC_URL and
 * `http://HOST:PORT` (unless HOST is a wildcard address, which no browser page is served from).
 * Never derived from the request's Host header: DNS rebinding makes Host say what the attacker's
 * page says, so only a list fixed at boot tells the gateway's own pages from others.
 */
function mcpOrigins(
  configured: readonly string[],
  e: { HOST: string; PORT: number; TOOLGATE_PUBLIC_URL?: string },
) {
  const own = [e.TOOLGATE_PUBLIC_URL ? new URL(e.TOOLGATE_PUBLIC_URL).origin : undefined];
  if (!['0.0.0.0', '::', '[::]'].includes(e.HOST) && e.PORT !== 0) {
    const host = e.HOST.includes(':') && !e.HOST.startsWith('[') ? `[${e.HOST}]` : e.HOST;
    own.push(safeOrigin(`http://${host}:${e.PORT}`));
  }
  return [...new Set([...configured.map((o) => new URL(o).origin), ...own.filter((o): o is string => !!o)])];
}

function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** The archive bucket, its keys read from the environment (never written in the file). */
function s3Settings(
  s3: NonNullable<NonNullable<PlatformFile['audit']>['archiveStore']>['s3'],
  deployment: string,
  env: NodeJS.ProcessEnv,
): S3ArchiveOptions {
  const lookup = (name: string) => env[name] || undefined;
  const key = (path: string, placeholder: string) => {
    try {
      return expandVariables(placeholder, lookup);
    } catch (error) {
      throw new SettingsError(`audit.archiveStore.s3.${path}: ${(error as Error).message}`);
    }
  };
  return {
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: s3.region ?? 'us-east-1',
    // One prefix per deployment, as for the directory: deployments sharing a bucket stay apart.
    prefix: `${s3.prefix ?? ''}${deployment}/`,
    accessKey: key('accessKey', s3.accessKey),
    secretKey: key('secretKey', s3.secretKey),
    pathStyle: s3.pathStyle ?? true,
  };
}

/** `{ [key]: value }`, or nothing when value is undefined (optional settings stay absent). */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function auditSettings(
  file: PlatformFile['audit'],
  keys: AuditKeyMaterial,
  dataDir: string,
  deployment: string,
  o: { profile: 'off' | 'dengbao3'; purgeUrl?: string; env: NodeJS.ProcessEnv },
): Settings['audit'] {
  const { redaction: defaultRedaction, retention: defaultRetention, ...defaults } = FILE_DEFAULTS.audit;
  const { redaction, archiveDir, retention: fileRetention, archiveStore, ...rest } = file ?? {};
  const retention = { ...defaultRetention, ...fileRetention };
  const compliance = o.profile === 'dengbao3';
  return {
    ...defaults,
    ...rest,
    // ADR 037: the floor is the platform's minimum, raised to six months under the 等保 profile.
    retention: {
      ...retention,
      floorDays: Math.max(retention.minimumDays, compliance ? COMPLIANCE_RETENTION_FLOOR_DAYS : 0),
      appendOnly: compliance,
      ...optional('purgeUrl', o.purgeUrl),
    },
    ...optional('archiveS3', archiveStore && s3Settings(archiveStore.s3, deployment, o.env)),
    // One subdirectory per deployment (its database): two deployments pointed at one directory
    // (or at one default data directory) never read each other's checkpoints as their own.
    archiveDir: join(archiveDir ? resolve(archiveDir) : join(dataDir, AUDIT_ARCHIVE_DIR), deployment),
    defaultRedaction: {
      mode: redaction?.mode ?? defaultRedaction.mode,
      patterns: redaction?.patterns ?? defaultRedaction.patterns,
    },
    signingKeyPem: keys.signingKeyPem,
    ...optional('smSigningKeyPem', keys.smSigningKeyPem),
    fingerprintSecret: keys.fingerprintSecret,
    chainKey: keys.chainKey,
    smChainKey: keys.smChainKey,
    keySource: keys.source,
  };
}
