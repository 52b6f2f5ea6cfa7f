import { DEFAULT_APPROVALS_OPTIONS } from '@toolgate/approvals';
import { DEFAULT_AUDIT_OPTIONS, DEFAULT_REDACTION_POLICY, DEFAULT_SIEM_OPTIONS } from '@toolgate/audit';
import { DEFAULT_AUTH_OPTIONS } from '@toolgate/auth';
import { DEFAULT_CALLS_OPTIONS } from '@toolgate/calls';
import { PROCESSING_RECORDS_FLOOR_DAYS } from '@toolgate/data-protection';
import { DEFAULT_EGRESS_OPTIONS } from '@toolgate/egress';
import { DEFAULT_INSTANCE_OPTIONS, DEFAULT_POOL_SIZE } from '@toolgate/database';
import { DEFAULT_MCP_TASKS_OPTIONS } from '@toolgate/mcp';
import { DEFAULT_MODELS_OPTIONS } from '@toolgate/models';
import { DEFAULT_NOTIFICATIONS_OPTIONS } from '@toolgate/notifications';
import { DEFAULT_QUOTAS_OPTIONS } from '@toolgate/quotas';
import { DEFAULT_RUNS_OPTIONS } from '@toolgate/runs';
import { DEFAULT_TENANCY_OPTIONS } from '@toolgate/tenancy';

/**
 * The defaults of `config/toolgate.yaml`, per section of the file. Each lib owns the defaults of
 * its own options (`DEFAULT_*_OPTIONS`); only the HTTP server's and the log level are the gateway's.
 * The file shows the same values, and `defaults.spec.ts` fails when the two disagree.
 */
export const FILE_DEFAULTS = {
  server: { bodyLimitBytes: 1024 * 1024, accessLog: false, trustProxy: false },
  database: { poolSize: DEFAULT_POOL_SIZE },
  // Browser origins allowed to call /mcp/* besides the gateway's own (TOOLGATE_PUBLIC_URL, HOST:PORT).
  mcp: { allowedOrigins: [] as string[], tasksPollMs: DEFAULT_MCP_TASKS_OPTIONS.pollIntervalMs },
  auth: DEFAULT_AUTH_OPTIONS,
  tenancy: DEFAULT_TENANCY_OPTIONS,
  compliance: { profile: 'off', processingRecordsDays: PROCESSING_RECORDS_FLOOR_DAYS },
  logLevel: 'info',
  audit: { ...DEFAULT_AUDIT_OPTIONS, redaction: DEFAULT_REDACTION_POLICY },
  // One section for two libs: parked calls (approvals) and their idempotency (calls).
  approvals: { ...DEFAULT_APPROVALS_OPTIONS, ...DEFAULT_CALLS_OPTIONS },
  quotas: DEFAULT_QUOTAS_OPTIONS,
  instances: DEFAULT_INSTANCE_OPTIONS,
  models: DEFAULT_MODELS_OPTIONS,
  runs: DEFAULT_RUNS_OPTIONS,
  notifications: DEFAULT_NOTIFICATIONS_OPTIONS,
  siem: { ...DEFAULT_SIEM_OPTIONS, sinks: [] as never[] },
  egress: DEFAULT_EGRESS_OPTIONS,
} as const;
