import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_REDACTION_POLICY, redactionSettingsSchema, type AuditOptions } from '@toolgate/audit';
import { DEFAULT_DATABASE_URL, parseDatabaseUrl, type InstanceOptions } from '@toolgate/database';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { loadAuditKeyMaterial, type AuditKeyMaterial } from './key-material.js';

/** Defaults that are not in CONTRACT.md's env table; all overridable in `config/toolgate.yaml`. */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
export const DEFAULT_KEY_CACHE_TTL_MS = 2_000;
export const DEFAULT_BINDING_CACHE_TTL_MS = 1_000;
/** The audit write's own deadline inside a call's time budget. */
export const DEFAULT_AUDIT_WRITE_DEADLINE_MS = 2_000;
export const DEFAULT_AUDIT_MAX_BATCH = 500;
export const DEFAULT_CHECKPOINT_INTERVAL_MS = 60_000;
export const DEFAULT_HEARTBEAT_MS = 2_000;
export const DEFAULT_APPROVAL_EXPIRY_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_STALE_AFTER_MS = 15_000;

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
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
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
  DATABASE_URL: z.string().min(1).default(DEFAULT_DATABASE_URL),
  TOOLGATE_ADMIN_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  TOOLGATE_CONFIG_DIR: z.string().min(1).default('config'),
  TOOLGATE_LOCALE: z.enum(['zh-CN', 'en']).default('zh-CN'),
  TOOLGATE_DEMO: booleanEnv.optional(),
  TOOLGATE_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
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

function readPlatformFile(configDir: string): z.infer<typeof platformFileSchema> {
  const file = join(configDir, 'toolgate.yaml');
  if (!existsSync(file)) return {};
  const parsed = platformFileSchema.safeParse(parseYaml(readFileSync(file, 'utf8')) ?? {});
  if (!parsed.success) {
    throw new SettingsError(
      `${file}:\n${parsed.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
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
    throw new SettingsError(
      `Invalid environment:\n${parsed.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
  }
  const e = parsed.data;
  const target = parseDatabaseUrl(e.DATABASE_URL);
  const file = readPlatformFile(e.TOOLGATE_CONFIG_DIR);
  return {
    server: {
      port: e.PORT,
      host: e.HOST,
      bodyLimitBytes: file.server?.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
      accessLog: file.server?.accessLog ?? false,
      trustProxy: file.server?.trustProxy ?? false,
      consoleDir: e.TOOLGATE_CONSOLE_DIR,
    },
    database: { url: e.DATABASE_URL, poolSize: file.database?.poolSize ?? 20 },
    auth: {
      adminKey: e.TOOLGATE_ADMIN_KEY,
      generateAdminKey: !e.TOOLGATE_ADMIN_KEY,
      keyCacheTtlMs: file.auth?.keyCacheTtlMs ?? DEFAULT_KEY_CACHE_TTL_MS,
    },
    tenancy: {
      configDir: e.TOOLGATE_CONFIG_DIR,
      // CONTRACT.md: the demo is on for SQLite and off for MySQL unless TOOLGATE_DEMO says otherwise.
      demo: e.TOOLGATE_DEMO ?? target.kind === 'sqlite',
      bindingCacheTtlMs: file.tenancy?.bindingCacheTtlMs ?? DEFAULT_BINDING_CACHE_TTL_MS,
    },
    audit: auditSettings(file.audit, loadAuditKeyMaterial(env, e.TOOLGATE_DATA_DIR)),
    instances: {
      instanceId: e.TOOLGATE_INSTANCE_ID,
      heartbeatMs: file.instances?.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
      staleAfterMs: file.instances?.staleAfterMs ?? DEFAULT_STALE_AFTER_MS,
    },
    approvals: {
      expiryMs: file.approvals?.expiryMs ?? DEFAULT_APPROVAL_EXPIRY_MS,
      idempotencyTtlMs: file.approvals?.idempotencyTtlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS,
      pollMs: file.approvals?.pollMs ?? 2_000,
    },
    quotas: { redisUrl: e.REDIS_URL, redisPrefix: e.TOOLGATE_REDIS_PREFIX },
    dataDir: e.TOOLGATE_DATA_DIR,
    locale: e.TOOLGATE_LOCALE,
    logLevel: e.TOOLGATE_LOG_LEVEL ?? file.logLevel ?? 'info',
  };
}

function auditSettings(
  file: z.infer<typeof platformFileSchema>['audit'],
  keys: AuditKeyMaterial,
): Settings['audit'] {
  return {
    auditL0: file?.auditL0 ?? false,
    writeDeadlineMs: file?.writeDeadlineMs ?? DEFAULT_AUDIT_WRITE_DEADLINE_MS,
    maxBatch: file?.maxBatch ?? DEFAULT_AUDIT_MAX_BATCH,
    retryIntervalMs: file?.retryIntervalMs ?? 1_000,
    checkpointIntervalMs: file?.checkpointIntervalMs ?? DEFAULT_CHECKPOINT_INTERVAL_MS,
    reconcileIntervalMs: file?.reconcileIntervalMs ?? 5_000,
    defaultRedaction: {
      mode: file?.redaction?.mode ?? DEFAULT_REDACTION_POLICY.mode,
      patterns: file?.redaction?.patterns ?? DEFAULT_REDACTION_POLICY.patterns,
    },
    signingKeyPem: keys.signingKeyPem,
    fingerprintSecret: keys.fingerprintSecret,
    keySource: keys.source,
  };
}

/** The @nestjs/config namespace the settings live under. */
export const SETTINGS_NAMESPACE = 'toolgate';
