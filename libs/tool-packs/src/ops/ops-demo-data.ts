/**
 * The ops simulator's fixed world. Everything is deterministic: the same query always answers the
 * same lines, so demos and tests can rely on exact numbers.
 */

/** One demo service. */
export interface DemoService {
  readonly status: 'healthy' | 'degraded' | 'down';
  readonly instances: number;
  readonly updatedAt: string;
  /** Matching log lines per hour, by severity. */
  readonly logsPerHour: { readonly error: number; readonly warn: number; readonly info: number };
  /** Every request about this service waits this long first (the timeout demo). */
  readonly slow?: boolean;
}

/** The services the ops simulator knows. */
export const DEMO_SERVICES: Readonly<Record<string, DemoService>> = {
  'payment-api': {
    status: 'healthy',
    instances: 3,
    updatedAt: '2025-11-30T05:59:30.000Z',
    logsPerHour: { error: 3, warn: 12, info: 600 },
  },
  // 120 errors an hour: more than read_logs' default limit of 50, so truncation shows.
  'search-api': {
    status: 'degraded',
    instances: 2,
    updatedAt: '2025-11-30T05:59:45.000Z',
    logsPerHour: { error: 120, warn: 40, info: 300 },
  },
  'legacy-batch': {
    status: 'healthy',
    instances: 1,
    updatedAt: '2025-11-30T05:00:00.000Z',
    logsPerHour: { error: 1, warn: 2, info: 24 },
    slow: true,
  },
};

/** A demo service by name; own keys only, so `__proto__` is not a service. */
export function findDemoService(name: string): DemoService | undefined {
  return Object.hasOwn(DEMO_SERVICES, name) ? DEMO_SERVICES[name] : undefined;
}

/** "Now" of the demo logs: a fixed instant keeps the lines identical across runs. */
export const LOG_REFERENCE_TIME = Date.parse('2025-11-30T06:00:00.000Z');

const WINDOW_MS: Readonly<Record<string, number>> = { '5m': 5 * 60_000, '1h': 3_600_000, '24h': 86_400_000 };
const LEVELS_FOR: Readonly<Record<string, readonly Severity[]>> = {
  error: ['error'],
  warn: ['error', 'warn'],
  all: ['error', 'warn', 'info'],
};
type Severity = 'error' | 'warn' | 'info';

const TEMPLATES: Readonly<Record<Severity, readonly string[]>> = {
  error: [
    '请求处理超时：耗时 {n} ms，超过 3000 ms 阈值',
    '下游 {peer} 返回 503，已放弃本次请求',
    '数据库连接池耗尽：等待 {n} ms 后仍无可用连接',
  ],
  warn: ['请求队列积压 {n} 条', 'GC 暂停 {n} ms', '调用 {peer} 重试 1 次后成功'],
  info: ['处理请求 req-{id} 完成，耗时 {n} ms', '健康检查通过'],
};
const PEERS = ['recommend-svc', 'inventory-svc', 'user-svc'];

/** Whether a window and a level are ones the simulator understands. */
export function isKnownLogQuery(window: string, level: string): boolean {
  return window in WINDOW_MS && level in LEVELS_FOR;
}

/** How many lines match a query in its window. */
export function countLogLines(service: DemoService, window: string, level: string): number {
  return LEVELS_FOR[level]!.reduce((sum, s) => sum + linesInWindow(service, s, window), 0);
}

/** The newest `limit` matching lines, newest first. */
export function generateLogLines(
  name: string,
  service: DemoService,
  window: string,
  level: string,
  limit: number,
): string[] {
  const stamped: { at: number; line: string }[] = [];
  for (const severity of LEVELS_FOR[level]!) {
    const count = linesInWindow(service, severity, window);
    // Lines of one severity are spread evenly over the window, so the newest `limit` of each
    // severity are enough to find the newest `limit` overall.
    const spacing = WINDOW_MS[window]! / count;
    for (let i = 0; i < Math.min(count, limit); i++) {
      const at = LOG_REFERENCE_TIME - Math.round((i + 0.5) * spacing);
      stamped.push({ at, line: formatLine(name, service, severity, i, at) });
    }
  }
  return stamped
    .sort((a, b) => b.at - a.at)
    .slice(0, limit)
    .map((s) => s.line);
}

function linesInWindow(service: DemoService, severity: Severity, window: string): number {
  const perHour = service.logsPerHour[severity];
  return Math.ceil((perHour * WINDOW_MS[window]!) / WINDOW_MS['1h']!);
}

function formatLine(name: string, service: DemoService, severity: Severity, i: number, at: number): string {
  const seed = hash(`${name}:${severity}:${i}`);
  const templates = TEMPLATES[severity];
  const text = templates[seed % templates.length]!.replace('{n}', String(100 + (seed % 4900)))
    .replace('{peer}', PEERS[seed % PEERS.length]!)
    .replace('{id}', (seed % 100_000).toString().padStart(5, '0'));
  const instance = `${name}-${(seed % service.instances) + 1}`;
  return `${new Date(at).toISOString()} ${severity.toUpperCase().padEnd(5)} ${name} [${instance}] ${text}`;
}

/** FNV-1a: a stable, dependency-free number per line. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
