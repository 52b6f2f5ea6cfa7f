import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactionSettingsSchema } from '@toolgate/audit';
import { parseRange } from '@toolgate/egress';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { oidcFileSchema } from './oidc-file.js';

export const logLevelSchema = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

const ms = z.number().int();

/** Keys come from the environment only: the file names the variable, never the key itself. */
const environmentPlaceholder = z
  .string()
  .regex(/^\$\{[A-Z_][A-Z0-9_]*\}$/, 'write ${NAME_OF_AN_ENVIRONMENT_VARIABLE}, never the key itself');

const modelProviderSchema = z.strictObject({
  baseUrl: z.url({ protocol: /^https?$/ }),
  apiKey: environmentPlaceholder.optional(),
  timeoutMs: ms.positive().max(900_000).optional(),
  maxRetries: z.number().int().min(0).max(10).optional(),
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

/**
 * `config/toolgate.yaml`: platform settings that are not per tenant. Every key is optional; the
 * defaults are FILE_DEFAULTS (file-defaults.ts), and the file in the repository shows them.
 */
export const platformFileSchema = z.strictObject({
  server: z
    .strictObject({
      bodyLimitBytes: z.number().int().positive().optional(),
      accessLog: z.boolean().optional(),
      trustProxy: z.boolean().optional(),
    })
    .optional(),
  database: z.strictObject({ poolSize: z.number().int().positive().optional() }).optional(),
  mcp: z.strictObject({ allowedOrigins: z.array(originSchema).max(100).optional() }).optional(),
  auth: z
    .strictObject({ keyCacheTtlMs: ms.nonnegative().optional(), oidc: oidcFileSchema.optional() })
    .optional(),
  tenancy: z.strictObject({ bindingCacheTtlMs: ms.nonnegative().optional() }).optional(),
  logLevel: logLevelSchema.optional(),
  audit: z
    .strictObject({
      auditL0: z.boolean().optional(),
      writeDeadlineMs: ms.positive().max(30_000).optional(),
      maxBatch: z.number().int().min(1).max(5_000).optional(),
      writerLanes: z.number().int().min(1).max(64).optional(),
      batchesInFlight: z.number().int().min(1).max(16).optional(),
      retryIntervalMs: ms.positive().optional(),
      checkpointIntervalMs: ms.nonnegative().optional(),
      redactionCacheTtlMs: ms.nonnegative().optional(),
      reconcileIntervalMs: ms.nonnegative().optional(),
      redaction: redactionSettingsSchema.optional(),
    })
    .optional(),
  approvals: z
    .strictObject({
      expiryMs: ms.positive().optional(),
      idempotencyTtlMs: ms.positive().optional(),
      pollMs: ms.positive().optional(),
      orphanAfterMs: ms.positive().optional(),
      idempotencyWaitMs: ms.positive().optional(),
      idempotencyPollMs: ms.positive().optional(),
    })
    .optional(),
  quotas: z
    .strictObject({
      quotaCacheTtlMs: ms.nonnegative().optional(),
      maxTokensPerDay: z.number().int().positive().nullable().optional(),
      runsInFlightPerKey: z.number().int().min(1).max(10_000).optional(),
      runStreamsPerKey: z.number().int().min(1).max(10_000).optional(),
      taskWaitsPerKey: z.number().int().min(1).max(10_000).optional(),
    })
    .optional(),
  runs: z.strictObject({ leaseMs: ms.positive().optional(), pollMs: ms.positive().optional() }).optional(),
  notifications: z
    .strictObject({
      pollMs: ms.positive().optional(),
      maxAttempts: z.number().int().min(1).max(50).optional(),
      retryBaseMs: ms.positive().optional(),
      sendTimeoutMs: ms.positive().max(60_000).optional(),
      callbackWindowMs: ms.positive().max(3_600_000).optional(),
    })
    .optional(),
  instances: z
    .strictObject({
      heartbeatMs: ms.positive().optional(),
      staleAfterMs: ms.positive().optional(),
    })
    .optional(),
  models: z.strictObject({ providers: modelProvidersSchema.optional() }).optional(),
  egress: z
    .strictObject({
      allowHosts: z.array(egressHost).max(1_000).optional(),
      allowCidrs: z.array(egressCidr).max(1_000).optional(),
    })
    .optional(),
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
