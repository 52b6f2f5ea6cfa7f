import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';

/** Where the console is built to, and its sources. */
export const CONSOLE_DIR = resolve('apps/console');
export const CONSOLE_DIST = join(CONSOLE_DIR, 'dist');
export const SCREENSHOTS = resolve('test-results/screenshots');

/** Debian's Chromium; the tests never download a browser. */
export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds the console (`npm run build:console`) when there is no build or a source is newer than it. */
export function ensureConsoleBuilt(): void {
  let built = 0;
  try {
    built = statSync(join(CONSOLE_DIST, 'index.html')).mtimeMs;
  } catch {
    /* not built yet */
  }
  const sources = Math.max(
    newestMtime(join(CONSOLE_DIR, 'src')),
    statSync(join(CONSOLE_DIR, 'index.html')).mtimeMs,
  );
  if (built > sources) return;
  execFileSync(
    process.execPath,
    [
      resolve('node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      join(CONSOLE_DIR, 'vite.config.ts'),
      '--logLevel',
      'warn',
    ],
    { stdio: 'inherit' },
  );
}

/** A headless Chromium with a fresh profile; every `newPage` is a new tab, so a new session. */
export interface ConsoleBrowser {
  readonly context: BrowserContext;
  /** Uncaught errors of the console's pages (a healthy run has none). */
  readonly pageErrors: string[];
  /** Opens a tab; the console's language starts as `language` (zh-CN unless told). */
  newPage(language?: 'zh-CN' | 'en' | null): Promise<Page>;
  close(): Promise<void>;
}

export async function launchConsoleBrowser(): Promise<ConsoleBrowser> {
  // A fresh temporary profile: Playwright hands it to Chromium as --user-data-dir.
  const profile = mkdtempSync(join(tmpdir(), 'toolgate-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1440, height: 900 },
    locale: 'zh-CN',
    acceptDownloads: true,
    // The console turns Ant Design's motion off for it: no click lands on a dialog, dropdown or
    // popconfirm still moving (Chromium 156 on a loaded machine lost such clicks).
    reducedMotion: 'reduce',
  });
  const pageErrors: string[] = [];
  context.on('weberror', (e) => pageErrors.push(e.error().message));
  return {
    context,
    pageErrors,
    async newPage(language = 'zh-CN') {
      const page = await context.newPage();
      if (language) {
        // Once per tab: later reloads keep whatever the user picked. (Browser code as text: the
        // tests are type-checked without the DOM library.)
        await page.addInitScript(
          `if (!sessionStorage.getItem('toolgate.test.lang-set')) {
             localStorage.setItem('toolgate.console.language', ${JSON.stringify(language)});
             sessionStorage.setItem('toolgate.test.lang-set', '1');
           }`,
        );
      }
      return page;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Signs in on the sign-in page and waits for the frame of the console. */
export async function signIn(page: Page, consoleUrl: string, key: string): Promise<void> {
  await page.goto(`${consoleUrl}/`);
  await page.getByTestId('api-key-input').fill(key);
  await page.getByTestId('sign-in-submit').click();
  await page.getByTestId('whoami').waitFor();
}

/** The open dropdown of an Ant Design select: a closed one stays in the page (hidden), and one
 * that is closing keeps its place until its leave animation ends. */
export const OPEN_DROPDOWN = '.ant-select-dropdown:not(.ant-select-dropdown-hidden):not(.ant-slide-up-leave)';
/** An open dropdown that has finished opening (its options no longer move under the pointer). */
const SETTLED_DROPDOWN = `${OPEN_DROPDOWN}:not(.ant-slide-up-appear):not(.ant-slide-up-enter)`;

/**
 * Picks an option of an Ant Design select and waits until the pick shows (`shows`). The option is
 * clicked once the dropdown has finished opening; a pick that still does not show (Chromium 156 on
 * CI lost one) is made again, up to three times, instead of failing a later wait.
 */
export async function chooseOption(
  page: Page,
  select: Locator,
  option: string,
  shows: Locator,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    if ((await page.locator(OPEN_DROPDOWN).count()) === 0) await select.click();
    await page.locator(SETTLED_DROPDOWN).locator(option).click();
    try {
      await shows.waitFor({ timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** Saves a full-page screenshot as test-results/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Loaded pages only: no spinner left (tables, charts, lazy pages).
  // A function, not a string: the console's CSP forbids eval, which a string predicate needs.
  await page.waitForFunction(
    () => !(globalThis as any).document.querySelector('.ant-spin-spinning'),
    undefined,
    { timeout: 60_000 },
  );
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true, animations: 'disabled' });
}
