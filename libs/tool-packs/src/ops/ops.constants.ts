/** Limits, names and demo credentials of the ops pack, in one place. */

/** The connector name: the key under `connectors:` in a tenant file. */
export const OPS_API_CONNECTOR = 'ops_api';

/**
 * The bearer token the demo ops simulator expects. Tenant files reference it as
 * `token: ${TOOLGATE_T_ACME__OPS_TOKEN:-demo-ops-token}`, so a real deployment sets the variable instead.
 */
export const DEMO_OPS_TOKEN = 'demo-ops-token';

/** Health states a service can report. */
export const SERVICE_STATUSES = ['healthy', 'degraded', 'down'] as const;
/** Longest service name a tool accepts (docs/tool-design-rules.md §4.3). */
export const SERVICE_NAME_MAX_LENGTH = 64;

/** Time windows `read_logs` can search. */
export const LOG_WINDOWS = ['5m', '1h', '24h'] as const;
/** Severity filters: `warn` means warnings and errors, `all` adds info lines. */
export const LOG_LEVELS = ['error', 'warn', 'all'] as const;
/** `read_logs` window when the model gives none. */
export const DEFAULT_LOG_WINDOW = '1h';
/** `read_logs` level when the model gives none: errors are what a fault hunt starts with. */
export const DEFAULT_LOG_LEVEL = 'error';
/** `read_logs` line count when the model gives none. */
export const DEFAULT_LOG_LIMIT = 50;
/** Most lines one `read_logs` call returns: more would flood the model's context (docs/tool-design-rules.md §4.3). */
export const MAX_LOG_LIMIT = 200;
/** Lines of the log sample the model sees (docs/tool-design-rules.md §4.13, exercise 3). */
export const MODEL_SUMMARY_LINES = 3;

/** Restart reasons shorter than this say nothing useful in the change log. */
export const MIN_RESTART_REASON_LENGTH = 10;
/** A rolling restart takes 10-30 s: the business-operation limit of docs/tool-design-rules.md §A3. */
export const RESTART_TIMEOUT_MS = 30_000;

/** How long the demo `legacy-batch` service takes to answer anything: past the 10 s default limit. */
export const LEGACY_BATCH_DELAY_MS = 15_000;
