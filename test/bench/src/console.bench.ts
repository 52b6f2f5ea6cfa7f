import { ApiKeyService } from '@toolgate/auth';
import { AuditWriter } from '@toolgate/audit';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createGateway } from '../../../apps/gateway/src/bootstrap.js';
import { loadSettings } from '../../../apps/gateway/src/settings/settings.js';
import { launchConsoleBrowser } from '../../browser/console-browser.js';
import { runLoad } from '../../support/gateway-process.js';
import { auditDraft } from './audit.bench.js';
import { BenchToolsModule } from './bench-tools.js';
import { median, printTable } from './bench-support.js';

const SESSION_KEY = 'toolgate.console.apiKey';
const FIRST_ROW = 'tbody tr.ant-table-row';

/** Raw, gzip and brotli bytes of the console build (the .gz/.br files the gateway serves). */
function bundleSizes(dist: string): { raw: number; gz: number; br: number } {
  const total = { raw: 0, gz: 0, br: 0 };
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = join(dir, name);
      const size = statSync(file).isDirectory() ? (walk(file), 0) : statSync(file).size;
      if (name.endsWith('.gz')) total.gz += size;
      else if (name.endsWith('.br')) total.br += size;
      else total.raw += size;
    }
  };
  walk(dist);
  return total;
}

/**
 * The console with 100,000 audit rows in the store (SQLite): bundle size, bytes a cold load of the
 * audit browser transfers, and the time from navigation to the first rendered row — cold (fresh
 * browser profile, empty cache) and warm (a reload with the hashed assets cached).
 */
export async function consoleFirstRender(
  env: Record<string, string>,
  rows = 100_000,
  loads = 5,
): Promise<void> {
  const settings = loadSettings({ ...env, TOOLGATE_LOG_LEVEL: 'warn', TOOLGATE_DEMO: 'off' });
  const app = await createGateway(settings, { imports: [BenchToolsModule], quiet: true });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${new URL(await app.getUrl()).port}`;
  try {
    const writer = app.get(AuditWriter);
    await runLoad(rows, 256, async (i) => {
      await writer.append([auditDraft(i, 'bench')], 30_000);
    });
    const auditor = await app.get(ApiKeyService).create(null, { name: 'bench auditor', role: 'auditor' });

    const apiMs: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      const res = await fetch(`${base}/v1/audit/events?limit=50`, {
        headers: { authorization: `Bearer ${auditor.key}` },
      });
      await res.arrayBuffer();
      apiMs.push(performance.now() - t0);
    }

    const cold: number[] = [];
    const warm: number[] = [];
    const transferred: number[] = [];
    for (let i = 0; i < loads; i++) {
      const browser = await launchConsoleBrowser();
      try {
        const page = await browser.newPage('zh-CN');
        await page.addInitScript(
          `sessionStorage.setItem(${JSON.stringify(SESSION_KEY)}, ${JSON.stringify(auditor.key)})`,
        );
        const sizes: Promise<number>[] = [];
        page.on('requestfinished', (req) => sizes.push(req.sizes().then((s) => s.responseBodySize)));
        let t0 = performance.now();
        // The events tab: the calls tab (the page's default) lists calls, and these rows are not calls.
        await page.goto(`${base}/console/audit?view=events`);
        await page.locator(FIRST_ROW).first().waitFor();
        cold.push(performance.now() - t0);
        transferred.push((await Promise.all(sizes)).reduce((a, b) => a + b, 0));
        t0 = performance.now();
        await page.reload();
        await page.locator(FIRST_ROW).first().waitFor();
        warm.push(performance.now() - t0);
        if (browser.pageErrors.length) throw new Error(`console errors: ${browser.pageErrors.join('; ')}`);
      } finally {
        await browser.close();
      }
    }

    const bundle = bundleSizes(settings.server.consoleDir);
    const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
    printTable(
      `Console: build size, and the audit browser with ${rows.toLocaleString('en-US')} events in the store (SQLite, Debian Chromium headless, median of ${loads} loads)`,
      ['measure', 'value', 'target'],
      [
        [
          'console build (all assets), raw / gzip / brotli',
          `${kib(bundle.raw)} / ${kib(bundle.gz)} / ${kib(bundle.br)}`,
          '—',
        ],
        ['bytes a cold load of /console/audit?view=events transfers', kib(median(transferred)), '—'],
        ['GET /v1/audit/events?limit=50, p50 ms', median(apiMs), '—'],
        ['first row rendered, cold cache, ms', median(cold), 'usable (no freeze)'],
        ['first row rendered, warm reload, ms', median(warm), '—'],
      ],
    );
  } finally {
    await app.close();
  }
}
