import {
  AuditWriter,
  CheckpointService,
  deriveLinkKeys,
  eventHash,
  smEventHash,
  type CryptoSuite,
} from '@toolgate/audit';
import { createGateway } from '../../../apps/gateway/src/bootstrap.js';
import { loadSettings } from '../../../apps/gateway/src/settings/settings.js';
import { runLoad } from '../../support/gateway-process.js';
import { createTestDatabase } from '../../support/test-database.js';
import { auditDraft } from './audit.bench.js';
import { BenchToolsModule } from './bench-tools.js';
import { median, printTable } from './bench-support.js';

/** One writer run under a suite, on a fresh MariaDB database: events/s and gateway CPU per event. */
async function writerRun(
  env: Record<string, string>,
  suite: CryptoSuite,
  total: number,
  callers: number,
): Promise<{ rate: number; cpuUs: number; ok: boolean }> {
  const db = await createTestDatabase('mariadb');
  try {
    const settings = loadSettings({
      ...env,
      DATABASE_URL: db.url,
      TOOLGATE_LOG_LEVEL: 'warn',
      TOOLGATE_DEMO: 'off',
      TOOLGATE_AUDIT_CRYPTO_SUITE: suite,
    });
    const app = await createGateway(settings, { imports: [BenchToolsModule], quiet: true });
    await app.init();
    const writer = app.get(AuditWriter);
    const tenants = ['bench-a', 'bench-b', 'bench-c', 'bench-d'];
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    await runLoad(total, callers, async (i) => {
      await writer.append([auditDraft(i, tenants[i % tenants.length]!)], 30_000);
    });
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const ok = (await app.get(CheckpointService).verify(tenants, {})).ok;
    await app.close();
    return { rate: total / seconds, cpuUs: (cpu.user + cpu.system) / total, ok };
  } finally {
    await db.drop();
  }
}

/**
 * What the `sm` suite (ADR 040) costs the hot path: the keyed link of every event, HMAC-SM3
 * against HMAC-SHA256 (in-process, the same drafts), and the group-commit writer's events/s on
 * MariaDB under each suite, alternating rounds, medians.
 */
export async function cryptoSuiteCost(
  env: Record<string, string>,
  total = 50_000,
  callers = 1024,
  rounds = 2,
): Promise<void> {
  const keys = deriveLinkKeys('bench secret');
  const drafts = Array.from({ length: 20_000 }, (_, i) => auditDraft(i, 'bench-a'));
  const linkCost = (link: (prev: string, i: number) => string) => {
    let prev = '0'.repeat(64);
    const t0 = process.cpuUsage();
    for (let i = 0; i < drafts.length; i++) prev = link(prev, i);
    const cpu = process.cpuUsage(t0);
    return (cpu.user + cpu.system) / drafts.length;
  };
  const sha: number[] = [];
  const sm: number[] = [];
  for (let r = 0; r < 5; r++) {
    sha.push(linkCost((prev, i) => eventHash(keys.sha256, prev, drafts[i]!, i + 1)));
    sm.push(linkCost((prev, i) => smEventHash(keys.sm3, prev, drafts[i]!, i + 1)));
  }
  const runs: Record<CryptoSuite, { rate: number; cpuUs: number; ok: boolean }[]> = { standard: [], sm: [] };
  for (let r = 0; r < rounds; r++)
    for (const suite of ['standard', 'sm'] as const)
      runs[suite].push(await writerRun(env, suite, total, callers));
  const row = (suite: CryptoSuite, linkUs: number) => {
    const rs = runs[suite];
    return [
      suite === 'sm' ? 'sm (HMAC-SM3)' : 'standard (HMAC-SHA256)',
      linkUs,
      median(rs.map((x) => x.rate)),
      median(rs.map((x) => x.cpuUs)),
      rs.every((x) => x.ok) ? 'yes' : 'NO',
    ];
  };
  printTable(
    `Audit suites: the link of one event (canonical form + HMAC, in-process, median of 5 × ${drafts.length.toLocaleString('en-US')}), and the writer on MariaDB (${total.toLocaleString('en-US')} events, ${callers} callers, median of ${rounds} alternating runs)`,
    ['suite', 'link µs/event', 'writer events/s', 'gateway CPU µs/event', 'chains verify'],
    [row('standard', median(sha)), row('sm', median(sm))],
  );
}
