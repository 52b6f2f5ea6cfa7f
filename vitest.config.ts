import swc from 'unplugin-swc';
import { configDefaults, defineConfig } from 'vitest/config';

// SWC compiles the TypeScript so decorator metadata (Nest DI) works under Vitest.
const swcPlugin = swc.vite({ module: { type: 'es6' }, jsc: { target: 'es2022' } });

/** Unit specs that assert wall-clock budgets. */
const TIMING_SPECS = 'libs/**/*-performance.spec.ts';

/**
 * An e2e project. `isolate: false` (e2e-sqlite, e2e-mariadb): files share a worker and its imports,
 * each still with its own gateway and fresh database; the latency projects keep isolated workers.
 */
const e2e = (
  name: string,
  databaseKind: 'sqlite' | 'mariadb',
  include = 'test/e2e/**/*.e2e-spec.ts',
  isolate = true,
) => ({
  extends: true as const,
  test: {
    name,
    include: [include],
    env: { TOOLGATE_TEST_DB: databaseKind },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    isolate,
  },
});

export default defineConfig({
  plugins: [swcPlugin],
  resolve: { tsconfigPaths: true },
  test: {
    pool: 'forks',
    maxWorkers: 2,
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'libs/**/*.spec.ts',
            'apps/gateway/**/*.spec.ts',
            'test/property/**/*.spec.ts',
            // Specs of libs against test/support's fakes (libs' own specs do not import test support).
            'test/integration/**/*.spec.ts',
            'test/types/**/*.spec.ts',
            // The relative links of README.md, SECURITY.md and docs/.
            'test/docs/**/*.spec.ts',
          ],
          exclude: [...configDefaults.exclude, TIMING_SPECS],
          globalSetup: [],
          // One worker imports Nest, TypeORM and the libs once for many files (import was most of the
          // run's time). Rules for specs that share a worker: docs/contributing.md, "The suite's time".
          isolate: false,
        },
      },
      {
        // Specs that hold code to a CPU-time budget (ReDoS bounds): run after the others, one file at
        // a time, so they time the code and not the neighbouring suites (`npm run test:latency`).
        extends: true,
        test: { name: 'timing', include: [TIMING_SPECS], globalSetup: [] },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.browser-spec.ts'],
          testTimeout: 90_000,
          hookTimeout: 180_000,
        },
      },
      e2e('e2e-sqlite', 'sqlite', undefined, false),
      e2e('e2e-mariadb', 'mariadb', undefined, false),
      // Suites that hold the gateway to a latency bound (/healthz within 50 ms under hostile load).
      // `npm test` runs them after the others, one file at a time: on two cores, a neighbouring
      // suite's load would measure the machine, not the gateway.
      e2e('latency-sqlite', 'sqlite', 'test/latency/**/*.latency-spec.ts'),
      e2e('latency-mariadb', 'mariadb', 'test/latency/**/*.latency-spec.ts'),
    ],
  },
});
