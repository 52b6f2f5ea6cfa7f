import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_TENANT_YAML } from './bench-tools.js';
import { benchConfigDir } from './bench-support.js';
import { inProcessOverhead } from './in-process.bench.js';
import { restThroughput } from './rest.bench.js';

/**
 * `npm run bench`: prints tables of measured numbers. `--only <section>` runs one section;
 * `--duration <s>` sets the length of each load run (default 10 s).
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  const durationS = args.includes('--duration') ? Number(args[args.indexOf('--duration') + 1]) : 5;
  const configDir = benchConfigDir({ bench: BENCH_TENANT_YAML });
  const sqliteEnv = () => ({
    DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'toolgate-bench-')), 'bench.sqlite')}`,
    TOOLGATE_CONFIG_DIR: configDir,
    TOOLGATE_DEMO: 'off',
    TOOLGATE_ADMIN_KEY: 'tg_bench-admin-key-0123456789',
  });
  process.stdout.write(
    `# Toolgate benchmark — ${new Date().toISOString()} — Node ${process.version}, ${process.arch}\n`,
  );
  if (!only || only === 'inprocess') await inProcessOverhead(sqliteEnv());
  if (!only || only === 'rest') await restThroughput(sqliteEnv(), durationS);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`benchmark failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
