import type { ApprovalsOptions } from '@toolgate/approvals';
import type { RunsOptions } from '@toolgate/runs';
import type { AuditOptions } from '@toolgate/audit';
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
import { DEFAULT_UPSTREAMS_OPTIONS, type UpstreamsOptions } from '@toolgate/upstreams';
import { join } from 'node:path';
import { z } from 'zod';
import type { LogFormat } from '../telemetry/log-output.js';
import { FILE_DEFAULTS } from './file-defaults.js';
import { loadAuditKeyMaterial, type AuditKeyMaterial } from './key-material.js';
import { modelsSettings } from './model-settings.js';
import { oidcSettings } from './oidc-settings.js';
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

const booleanEnv = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no']))
  .transform((v) => ['1', 'true', 'on', 'yes'].includes(v));

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
  readonly database: { readonly url: string; readonly poolSize: number };
  /** The MCP endpoint's HTTP rules. */
  readonly mcp: {
    /**
     * Browser origins allowed on /mcp/* (the `Origin` header, exact match): the configured ones
     * and the gateway's own. A request with another Origin answers 403; one without is let through.
     */
    readonly allowedOrigins: readonly string[];
  };
  readonly auth: AuthOptions;
  readonly tenancy: TenancyOptions;
  readonly audit: AuditOptions & { readonly keySource: string };
  readonly instances: InstanceOptions;
  readonly approvals: ApprovalsOptions;
  readonly quotas: QuotasOptions;
  readonly models: ModelsOptions;
  readonly runs: RunsOptions;
  readonly upstreams: UpstreamsOptions;
  readonly notifications: NotificationsOptions;
  /** Where requests to tenant-chosen URLs may go (ADR 026). */
  readonly egress: EgressOptions;
  /** `/metrics`: the scraper's bearer token (TOOLGATE_METRICS_TOKEN); unset, platform admins only. */
  readonly ops: { readonly metricsToken?: string };
  readonly dataDir: string;
  readonly locale: 'zh-CN' | 'en';
  readonly logLevel: string;
  /** `pretty` when stdout is a terminal, else `json` (TOOLGATE_LOG_FORMAT). */
  readonly logFormat: LogFormat;
}

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Unset: the embedded SQLite file in TOOLGATE_DATA_DIR. */
  DATABASE_URL: z.string().min(1).optional(),
  TOOLGATE_ADMIN_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  TOOLGATE_CONFIG_DIR: z.string().min(1).default('config'),
  TOOLGATE_LOCALE: z.enum(['zh-CN', 'en']).default('zh-CN'),
  TOOLGATE_DEMO: booleanEnv.optional(),
  TOOLGATE_WATCH_TENANT_FILES: booleanEnv.optional(),
  TOOLGATE_LOG_LEVEL: logLevelSchema.optional(),
  TOOLGATE_LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  TOOLGATE_DATA_DIR: z.string().min(1).default('data'),
  TOOLGATE_CONSOLE_DIR: z.string().min(1).default('apps/console/dist'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'use redis://host:6379')
    .optional(),
  /** Unset: `toolgate:<hash of the database>`, one namespace per deployment (deploymentRedisPrefix). */
  TOOLGATE_REDIS_PREFIX: z.string().min(1).max(64).optional(),
  TOOLGATE_INSTANCE_ID: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,128}$/)
    .optional(),
  /** An OpenAI-compatible provider named `default`, without a settings file. */
  TOOLGATE_MODEL_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  TOOLGATE_MODEL_API_KEY: z.string().min(1).optional(),
  /** The model of agent types that name none, `provider/model`; unset: the demo planner. */
  TOOLGATE_MODEL: z
    .string()
    .regex(/^[a-z][a-z0-9_-]{0,31}\/\S+$/, 'use provider/model, e.g. default/qwen-plus')
    .optional(),
  /** How often upstream tool sources are compared with their pinned definitions (issue 11). */
  /** Where people reach this gateway (behind a proxy: its public address); links in notifications use it. */
  TOOLGATE_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  TOOLGATE_UPSTREAM_REFRESH_MS: z.coerce.number().int().min(100).max(86_400_000).optional(),
  /** Replaces `mcp.allowedOrigins` of the settings file: origins, comma-separated. */
  TOOLGATE_MCP_ALLOWED_ORIGINS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .pipe(z.array(originSchema).max(100))
    .optional(),
  /** The bearer token Prometheus sends to read /metrics; unset: only platform admins' keys may. */
  TOOLGATE_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').max(256).optional(),
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
    database: { url: databaseUrl, ...FILE_DEFAULTS.database, ...file.database },
    mcp: {
      allowedOrigins: mcpOrigins(
        e.TOOLGATE_MCP_ALLOWED_ORIGINS ?? file.mcp?.allowedOrigins ?? FILE_DEFAULTS.mcp.allowedOrigins,
        e,
      ),
    },
    auth: {
      adminKey: e.TOOLGATE_ADMIN_KEY,
      generateAdminKey: !e.TOOLGATE_ADMIN_KEY,
      adminKeyFile: join(e.TOOLGATE_DATA_DIR, ADMIN_KEY_FILE),
      keyCacheTtlMs: file.auth?.keyCacheTtlMs ?? FILE_DEFAULTS.auth.keyCacheTtlMs,
      ...optional('oidc', oidcSettings(file.auth?.oidc, env)),
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
      // Tenant files are refused above the platform's ceilings when they are saved.
      ceilings: { maxTokensPerDay: quotas.maxTokensPerDay },
    },
    audit: auditSettings(file.audit, loadAuditKeyMaterial(env, e.TOOLGATE_DATA_DIR)),
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
    },
    egress: { ...FILE_DEFAULTS.egress, ...file.egress },
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

/** `{ [key]: value }`, or nothing when value is undefined (optional settings stay absent). */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function auditSettings(file: PlatformFile['audit'], keys: AuditKeyMaterial): Settings['audit'] {
  const { redaction: defaultRedaction, ...defaults } = FILE_DEFAULTS.audit;
  const { redaction, ...rest } = file ?? {};
  return {
    ...defaults,
    ...rest,
    defaultRedaction: {
      mode: redaction?.mode ?? defaultRedaction.mode,
      patterns: redaction?.patterns ?? defaultRedaction.patterns,
    },
    signingKeyPem: keys.signingKeyPem,
    fingerprintSecret: keys.fingerprintSecret,
    chainKey: keys.chainKey,
    keySource: keys.source,
  };
}
