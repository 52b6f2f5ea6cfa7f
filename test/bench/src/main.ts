import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { approvalLatency } from './approvals.bench.js';
import { auditedThroughput, writerThroughput } from './audit.bench.js';
import { BENCH_TENANT_YAML } from './bench-tools.js';
import { consoleFirstRender } from './console.bench.js';
import { benchConfigDir } from './bench-support.js';
import { inProcessOverhead } from './in-process.bench.js';
import { adapterChoice, restThroughput } from './rest.bench.js';

/** Drops and recreates a MariaDB database for a benchmark section; answers its DATABASE_URL. */
async function freshMariaDb(name: string): Promise<string> {
  const conn = await createConnection({ host: '127.0.0.1', port: 3306, user: 'root', password: '' });
  await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
  await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await conn.end();
  return `mysql://root@127.0.0.1:3306/${name}`;
}

/**
 * `npm run bench`: prints tables of measured numbers. `--only <section>` runs one section
 * (inprocess, rest, adapter, audit, writer, approvals, console);
 * `--duration <s>` sets the length of each load run (default 10 s).
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  const durationS = args.includes('--duration') ? Number(args[args.indexOf('--duration') + 1]) : 5;
  const configDir = benchConfigDir({ bench: BENCH_TENANT_YAML });
  const sqliteEnv = () => ({
    TOOLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'toolgate-bench-data-')),
    DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'toolgate-bench-')), 'bench.sqlite')}`,
    TOOLGATE_CONFIG_DIR: configDir,
    TOOLGATE_DEMO: 'off',
    TOOLGATE_ADMIN_KEY: 'tg_bench-admin-key-0123456789',
  });
  process.stdout.write(
    `# Toolgate benchmark — ${new Date().toISOString()} — Node ${process.version}, ${process.arch}\n`,
  );
  const mariadbEnv = async () => ({
    DATABASE_URL: await freshMariaDb('toolgate_bench'),
    TOOLGATE_CONFIG_DIR: configDir,
    TOOLGATE_DEMO: 'off',
    TOOLGATE_ADMIN_KEY: 'tg_bench-admin-key-0123456789',
    TOOLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'toolgate-bench-data-')),
  });
  if (!only || only === 'inprocess') await inProcessOverhead(sqliteEnv());
  if (!only || only === 'rest') await restThroughput(sqliteEnv(), durationS);
  if (!only || only === 'adapter') await adapterChoice(durationS);
  if (!only || only === 'audit') await auditedThroughput(await mariadbEnv(), durationS);
  if (!only || only === 'writer') await writerThroughput(await mariadbEnv());
  if (!only || only === 'approvals') await approvalLatency(await mariadbEnv());
  if (!only || only === 'console') await consoleFirstRender(sqliteEnv());
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`benchmark failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
