import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approvalLatency } from './approvals.bench.js';
import { archiveUnderLoad } from './archive.bench.js';
import { auditedThroughput, writerThroughput } from './audit.bench.js';
import { clusterThroughput } from './cluster.bench.js';
import { cryptoSuiteCost } from './crypto-suite.bench.js';
import { BENCH_TENANT_YAML, BENCH_QUIET_TENANT_YAML, benchRulesTenantYaml } from './bench-tools.js';
import { makeConfigDir } from '../../support/config-dir.js';
import { createTestDatabase } from '../../support/test-database.js';
import { consoleFirstRender } from './console.bench.js';
import { inProcessOverhead } from './in-process.bench.js';
import { latencyFigures } from './latency.bench.js';
import { mcpThroughput } from './mcp.bench.js';
import { adapterChoice, restThroughput } from './rest.bench.js';
import { agentRuns } from './runs.bench.js';
import { ruleCosts } from './rules.bench.js';
import { writeRunToDocs } from './bench-report.js';
import { FigureCollector } from './summary.js';
import { fixedRateLatency } from './fixedrate.bench.js';
import { tracingCost } from './tracing.bench.js';
import { trailFigures } from './trail.bench.js';

/**
 * `npm run bench`: prints tables of measured numbers. `--only <section>` runs one section
 * (inprocess, rest, adapter, audit, writer, suites, approvals, console, runs, mcp, tracing, latency,
 * cluster, fixedrate, trail, archive); `--calls <n>` the audited calls of the cluster section (default 20,000);
 * `--events <n>` the events the trail and archive sections generate (default 1,000,000); `--keep-db`
 * keeps (and prints) the MariaDB databases the sections used instead of dropping them;
 * `--duration <s>` sets the length of each load run (default 5 s); `--runs <n>` the number of
 * sequential runs the runs section times (default 500). TOOLGATE_BENCH_CPU_PROF=<dir> makes the
 * runs section's gateway write a CPU profile there (node --cpu-prof) when it stops.
 * Ends with one summary table of issue 12's figures, from what the sections that ran returned.
 * `--write-docs` also writes every table of the run into docs/benchmarks.md (its bench:start …
 * bench:end block; the report around it is written by hand).
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  const durationS = args.includes('--duration') ? Number(args[args.indexOf('--duration') + 1]) : 5;
  const timedRuns = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 500;
  const clusterCalls = args.includes('--calls') ? Number(args[args.indexOf('--calls') + 1]) : 20_000;
  const trailEvents = args.includes('--events') ? Number(args[args.indexOf('--events') + 1]) : 1_000_000;
  const configDir = makeConfigDir({
    bench: BENCH_TENANT_YAML,
    benchquiet: BENCH_QUIET_TENANT_YAML,
    benchrules: benchRulesTenantYaml('benchrules', false),
    benchlate: benchRulesTenantYaml('benchlate', true),
  });
  const common = () => ({
    TOOLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'toolgate-bench-data-')),
    TOOLGATE_CONFIG_DIR: configDir,
    TOOLGATE_DEMO: 'off',
    TOOLGATE_ADMIN_KEY: 'tg_bench-admin-key-0123456789',
  });
  const sqliteEnv = () => ({
    ...common(),
    DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'toolgate-bench-')), 'bench.sqlite')}`,
  });
  // `--keep-db`: the MariaDB databases are kept (and named) for EXPLAINs after the run.
  const keepDb = args.includes('--keep-db');
  /** Runs a section against a fresh MariaDB database, dropped after it. */
  const onMariaDb = async (section: (env: Record<string, string>) => Promise<unknown>) => {
    const db = await createTestDatabase('mariadb');
    try {
      return await section({ ...common(), DATABASE_URL: db.url });
    } finally {
      if (keepDb) process.stdout.write(`kept ${db.url}\n`);
      else await db.drop();
    }
  };
  process.stdout.write(
    `# Toolgate benchmark — ${new Date().toISOString()} — Node ${process.version}, ${process.arch}\n`,
  );
  // Sections return their figures as Record<string, number> (see summary.ts); the rest is ignored.
  const figures = new FigureCollector();
  if (!only || only === 'inprocess') await inProcessOverhead(sqliteEnv());
  if (!only || only === 'rules') await ruleCosts();
  if (!only || only === 'rest') figures.add(await restThroughput(sqliteEnv(), durationS));
  if (!only || only === 'mcp') {
    const mcp = await mcpThroughput(sqliteEnv(), durationS);
    figures.add({ mcpOverRest: mcp.mcp!.rps / mcp.rest!.rps });
  }
  if (!only || only === 'adapter') await adapterChoice(durationS);
  if (!only || only === 'audit') figures.add(await onMariaDb((env) => auditedThroughput(env, durationS)));
  if (!only || only === 'writer') figures.add(await onMariaDb(writerThroughput));
  if (!only || only === 'suites') await cryptoSuiteCost(common());
  if (!only || only === 'approvals') figures.add(await onMariaDb(approvalLatency));
  if (!only || only === 'console') await consoleFirstRender(sqliteEnv());
  if (!only || only === 'runs') await onMariaDb((env) => agentRuns(env, durationS, timedRuns));
  // Latency at 500 and 2,000 req/s rather than at saturation (issue 25), on MariaDB.
  if (!only || only === 'fixedrate') figures.add(await onMariaDb(fixedRateLatency));
  // Issue 23's trail figures: generates the events first (minutes), so only when asked for by name.
  if (only === 'trail') figures.add(await onMariaDb((env) => trailFigures(env, trailEvents)));
  // Issue 23's archive + purge of one day under L1 load: generates its day first, so only by name.
  if (only === 'archive') figures.add(await onMariaDb((env) => archiveUnderLoad(env, trailEvents)));
  figures.print();
  if (!only || only === 'tracing') await tracingCost(sqliteEnv(), durationS);
  // The absolute latency figures the specs no longer assert (issue 27): printed beside their targets.
  if (!only || only === 'latency') await latencyFigures(['sqlite', 'mariadb']);
  // Two gateways on two nodes of a Galera cluster (ADR 042), beside the same load on one server.
  if (!only || only === 'cluster') await clusterThroughput(clusterCalls);
  if (args.includes('--write-docs')) process.stdout.write(`\nwrote ${await writeRunToDocs(args)}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`benchmark failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
