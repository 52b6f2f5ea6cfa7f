import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_REDACTION_POLICY, redactionSettingsSchema, type AuditOptions } from '@toolgate/audit';
import { defaultDatabaseUrl, parseDatabaseUrl, type InstanceOptions } from '@toolgate/database';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { loadAuditKeyMaterial, type AuditKeyMaterial } from './key-material.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The defaults of `config/toolgate.yaml` (which documents them; these are the source of truth),
 * per section of the file. The redaction default is the audit lib's DEFAULT_REDACTION_POLICY.
 */
const FILE_DEFAULTS = {
  server: { bodyLimitBytes: 1024 * 1024, accessLog: false, trustProxy: false },
  database: { poolSize: 20 },
  auth: { keyCacheTtlMs: 2_000 },
  tenancy: { bindingCacheTtlMs: 1_000 },
  logLevel: 'info',
  audit: {
    auditL0: false,
    /** The audit write's own deadline inside a call's time budget. */
    writeDeadlineMs: 2_000,
    maxBatch: 500,
    retryIntervalMs: 1_000,
    checkpointIntervalMs: 60_000,
    reconcileIntervalMs: 5_000,
  },
  approvals: { expiryMs: DAY_MS, idempotencyTtlMs: DAY_MS, pollMs: 2_000 },
  instances: { heartbeatMs: 2_000, staleAfterMs: 15_000 },
} as const;

const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/** `config/toolgate.yaml`: platform settings that are not per tenant. Every key is optional. */
const platformFileSchema = z.strictObject({
  server: z
    .strictObject({
      bodyLimitBytes: z.number().int().positive().optional(),
      accessLog: z.boolean().optional(),
      trustProxy: z.boolean().optional(),
    })
    .optional(),
  database: z.strictObject({ poolSize: z.number().int().positive().optional() }).optional(),
  auth: z.strictObject({ keyCacheTtlMs: z.number().int().nonnegative().optional() }).optional(),
  tenancy: z.strictObject({ bindingCacheTtlMs: z.number().int().nonnegative().optional() }).optional(),
  logLevel: logLevel.optional(),
  audit: z
    .strictObject({
      auditL0: z.boolean().optional(),
      writeDeadlineMs: z.number().int().positive().max(30_000).optional(),
      maxBatch: z.number().int().min(1).max(5_000).optional(),
      retryIntervalMs: z.number().int().positive().optional(),
      checkpointIntervalMs: z.number().int().nonnegative().optional(),
      reconcileIntervalMs: z.number().int().nonnegative().optional(),
      redaction: redactionSettingsSchema.optional(),
    })
    .optional(),
  approvals: z
    .strictObject({
      expiryMs: z.number().int().positive().optional(),
      idempotencyTtlMs: z.number().int().positive().optional(),
      pollMs: z.number().int().positive().optional(),
    })
    .optional(),
  instances: z
    .strictObject({
      heartbeatMs: z.number().int().positive().optional(),
      staleAfterMs: z.number().int().positive().optional(),
    })
    .optional(),
});

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
  };
  readonly database: { readonly url: string; readonly poolSize: number };
  readonly auth: {
    readonly adminKey?: string;
    readonly generateAdminKey: boolean;
    readonly keyCacheTtlMs: number;
  };
  readonly tenancy: {
    readonly configDir: string;
    readonly demo: boolean;
    readonly bindingCacheTtlMs: number;
  };
  readonly audit: AuditOptions & { readonly keySource: string };
  readonly instances: InstanceOptions;
  readonly approvals: {
    readonly expiryMs: number;
    readonly idempotencyTtlMs: number;
    readonly pollMs: number;
  };
  readonly quotas: { readonly redisUrl?: string; readonly redisPrefix: string };
  readonly dataDir: string;
  readonly locale: 'zh-CN' | 'en';
  readonly logLevel: string;
}

/** Raised with every problem of the environment and settings file at once. */
export class SettingsError extends Error {}

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Unset: the embedded SQLite file in TOOLGATE_DATA_DIR. */
  DATABASE_URL: z.string().min(1).optional(),
  TOOLGATE_ADMIN_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  TOOLGATE_CONFIG_DIR: z.string().min(1).default('config'),
  TOOLGATE_LOCALE: z.enum(['zh-CN', 'en']).default('zh-CN'),
  TOOLGATE_DEMO: booleanEnv.optional(),
  TOOLGATE_LOG_LEVEL: logLevel.optional(),
  TOOLGATE_DATA_DIR: z.string().min(1).default('data'),
  TOOLGATE_CONSOLE_DIR: z.string().min(1).default('apps/console/dist'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'use redis://host:6379')
    .optional(),
  TOOLGATE_REDIS_PREFIX: z.string().min(1).max(64).default('toolgate'),
  TOOLGATE_INSTANCE_ID: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,128}$/)
    .optional(),
});

const listIssues = (error: z.ZodError) =>
  error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`).join('\n');

function readPlatformFile(configDir: string): z.infer<typeof platformFileSchema> {
  const file = join(configDir, 'toolgate.yaml');
  if (!existsSync(file)) return {};
  const parsed = platformFileSchema.safeParse(parseYaml(readFileSync(file, 'utf8')) ?? {});
  if (!parsed.success) {
    throw new SettingsError(`${file}:\n${listIssues(parsed.error)}`);
  }
  return parsed.data;
}

/**
 * Reads the settings. Environment variables are CONTRACT.md's; the rest comes from
 * `<TOOLGATE_CONFIG_DIR>/toolgate.yaml` with the defaults above.
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
  return {
    server: {
      port: e.PORT,
      host: e.HOST,
      ...FILE_DEFAULTS.server,
      ...file.server,
      consoleDir: e.TOOLGATE_CONSOLE_DIR,
    },
    database: { url: databaseUrl, ...FILE_DEFAULTS.database, ...file.database },
    auth: {
      adminKey: e.TOOLGATE_ADMIN_KEY,
      generateAdminKey: !e.TOOLGATE_ADMIN_KEY,
      ...FILE_DEFAULTS.auth,
      ...file.auth,
    },
    tenancy: {
      configDir: e.TOOLGATE_CONFIG_DIR,
      // CONTRACT.md: the demo is on for SQLite and off for MySQL unless TOOLGATE_DEMO says otherwise.
      demo: e.TOOLGATE_DEMO ?? target.kind === 'sqlite',
      ...FILE_DEFAULTS.tenancy,
      ...file.tenancy,
    },
    audit: auditSettings(file.audit, loadAuditKeyMaterial(env, e.TOOLGATE_DATA_DIR)),
    instances: { instanceId: e.TOOLGATE_INSTANCE_ID, ...FILE_DEFAULTS.instances, ...file.instances },
    approvals: { ...FILE_DEFAULTS.approvals, ...file.approvals },
    quotas: { redisUrl: e.REDIS_URL, redisPrefix: e.TOOLGATE_REDIS_PREFIX },
    dataDir: e.TOOLGATE_DATA_DIR,
    locale: e.TOOLGATE_LOCALE,
    logLevel: e.TOOLGATE_LOG_LEVEL ?? file.logLevel ?? FILE_DEFAULTS.logLevel,
  };
}

function auditSettings(
  file: z.infer<typeof platformFileSchema>['audit'],
  keys: AuditKeyMaterial,
): Settings['audit'] {
  const { redaction, ...rest } = file ?? {};
  return {
    ...FILE_DEFAULTS.audit,
    ...rest,
    defaultRedaction: {
      mode: redaction?.mode ?? DEFAULT_REDACTION_POLICY.mode,
      patterns: redaction?.patterns ?? DEFAULT_REDACTION_POLICY.patterns,
    },
    signingKeyPem: keys.signingKeyPem,
    fingerprintSecret: keys.fingerprintSecret,
    chainKey: keys.chainKey,
    keySource: keys.source,
  };
}

/** The @nestjs/config namespace the settings live under. */
export const SETTINGS_NAMESPACE = 'toolgate';
