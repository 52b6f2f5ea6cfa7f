import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// SWC compiles the TypeScript so decorator metadata (Nest DI) works under Vitest.
const swcPlugin = swc.vite({ module: { type: 'es6' }, jsc: { target: 'es2022' } });

// Issue 27: the latency and timing specs compare costs measured in the same process and minute
// (hostile input against ordinary input of the same size, n → 4n, stalls against the same run's
// plain-input baseline, on-CPU), so a neighbouring suite's load cancels out of them: they run in
// `unit` and `e2e-*` with the rest, no longer alone in `timing` / `latency-*` projects.
/**
 * An e2e project. `isolate: false` (issue 22): files share a worker and its imports (Nest,
 * TypeORM, the app), each still with its own gateway and fresh database. Test timeouts are hang
 * guards, generous so that a busy machine is never a failure.
 */
const e2e = (
  name: string,
  databaseKind: 'sqlite' | 'mariadb',
  include = ['test/e2e/**/*.e2e-spec.ts', 'test/latency/**/*.latency-spec.ts'],
) => ({
  extends: true as const,
  test: {
    name,
    include,
    env: { TOOLGATE_TEST_DB: databaseKind },
    testTimeout: 120_000,
    hookTimeout: 180_000,
    isolate: false,
  },
});

/**
 * The e2e files the Node 24 run repeats (`npm run test:node24`): the ones that lean on the runtime
 * rather than on the app's logic — booting and the README's tour, Node's HTTP parser (hardening,
 * the API fuzz, time-boxed at 15 s there), OpenSSL (SM2/SM3, evidence signatures, TLS to syslog),
 * streams and ZIP, fetch and the openai client (runs), the MCP SDK client, OIDC. The whole `unit`
 * project runs on both runtimes; the other e2e files run on Node 20 on both databases (the suite's
 * 15-minute budget: all of `e2e-sqlite` again on Node 24 was 2.5 of its minutes).
 */
const NODE24_E2E = [
  'readme-tour',
  'http-hardening',
  'audit-sm-crypto',
  'audit-evidence',
  'personal-data-at-rest',
  'siem-streaming',
  'runs',
  'mcp-conformance',
  'oidc-sign-in',
]
  .map((name) => `test/e2e/${name}.e2e-spec.ts`)
  .concat('test/latency/api-fuzz.latency-spec.ts');

export default defineConfig({
  plugins: [swcPlugin],
  resolve: { tsconfigPaths: true },
  test: {
    pool: 'forks',
    maxWorkers: 2,
    // expect.poll's 1 s default is a speed claim on a busy machine: 30 s, a hang guard.
    expect: { poll: { timeout: 30_000 } },
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
          globalSetup: [],
          // Hang guards, not speed claims: vitest's 5 s default failed a worker-thread spec on a busy machine.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // One worker imports Nest, TypeORM and the libs once for many files (import was most of the
          // run's time). Rules for specs that share a worker: docs/contributing.md, "The suite's time".
          isolate: false,
        },
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
      e2e('e2e-sqlite', 'sqlite'),
      e2e('e2e-mariadb', 'mariadb'),
      // Only `npm run test:node24` names it.
      e2e('e2e-node24', 'sqlite', NODE24_E2E),
    ],
  },
});
