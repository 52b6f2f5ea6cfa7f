import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import type { Server } from 'node:http';

/** The statements one request sent to MySQL/MariaDB, each a round trip, in the order sent. */
export interface CountedRequest {
  readonly sql: string[];
}

/** The header that asks for a request's database round trips to be counted. */
export const COUNT_QUERIES_HEADER = 'x-test-count-queries';

const storage = new AsyncLocalStorage<CountedRequest>();
const counted = new Map<string, CountedRequest>();
let patched = false;

/**
 * Counts the database round trips of marked requests of an in-process gateway on MariaDB: every
 * `query`/`execute` a mysql2 connection sends (one packet, one answer — a multi-statement packet is
 * one) while serving a request that carried `x-test-count-queries: <label>`, including work it
 * handed on asynchronously (the audit writer's group commit is scheduled from the request). Pool
 * handshakes are not counted. Background work (pollers, projector) runs outside any request and is
 * never counted, so the figure is a property of the code path, not of timing — provided requests
 * are sent one at a time (a group commit joined by another request counts for whoever scheduled it).
 */
export function countQueries(server: Server): (label: string) => CountedRequest | undefined {
  if (!patched) {
    patched = true;
    const require = createRequire(import.meta.url);
    // Every connection of the driver's pool is a PoolConnection, a Connection underneath.
    const base = (require('mysql2') as { Connection: { prototype: Record<string, unknown> } }).Connection;
    for (const method of ['query', 'execute'] as const) {
      const original = base.prototype[method] as (...args: unknown[]) => unknown;
      base.prototype[method] = function (this: unknown, sql: unknown, ...rest: unknown[]) {
        const into = storage.getStore();
        if (into) {
          const text = typeof sql === 'string' ? sql : String((sql as { sql?: string })?.sql ?? '');
          into.sql.push(text);
        }
        return original.call(this, sql, ...rest);
      };
    }
  }
  const emit = server.emit.bind(server) as (event: string, ...args: unknown[]) => boolean;
  server.emit = ((event: string, ...args: unknown[]) => {
    const req = args[0] as { headers?: Record<string, string | string[] | undefined> } | undefined;
    const label = event === 'request' ? req?.headers?.[COUNT_QUERIES_HEADER] : undefined;
    if (typeof label !== 'string') return emit(event, ...args);
    const into: CountedRequest = { sql: [] };
    counted.set(label, into);
    return storage.run(into, () => emit(event, ...args));
  }) as Server['emit'];
  return (label) => counted.get(label);
}
