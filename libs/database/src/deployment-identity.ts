import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { DatabaseTarget } from './database-url.js';

/**
 * The default namespace of a deployment's keys in a shared store (Redis): `toolgate:` and 12 hex
 * of SHA-256 over the database it runs on — the MySQL server, port and database name (never the
 * user or password), or the SQLite file's absolute path. Gateways of one deployment share a
 * database, so they agree; two deployments on one Redis get different namespaces, so neither sees
 * the other's approval wake-ups nor spends the other's quota counters. Replicas that reach the
 * database under different host names must set the prefix themselves (`TOOLGATE_REDIS_PREFIX`).
 * @example deploymentRedisPrefix(parseDatabaseUrl('mysql://u:p@db:3306/toolgate')) // 'toolgate:<12 hex>'
 */
export function deploymentRedisPrefix(target: DatabaseTarget): string {
  const identity =
    target.kind === 'sqlite'
      ? `sqlite:${target.path === ':memory:' ? target.path : resolve(target.path)}`
      : `mysql://${target.host.toLowerCase()}:${target.port}/${target.database}`;
  return `toolgate:${createHash('sha256').update(identity).digest('hex').slice(0, 12)}`;
}
