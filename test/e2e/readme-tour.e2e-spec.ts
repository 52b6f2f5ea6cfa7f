import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { startTestGateway, TEST_ADMIN_KEY, type TestGateway } from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const README = join(import.meta.dirname, '../../README.md');
const TOUR_HEADING = '## A five-minute tour';
const PORT_LINE = /^export PORT=3000\b/m;

/** The tour's `bash` blocks, in order: the section of the README from its heading to the next. */
function tourBlocks(readme: string): string[] {
  const start = readme.indexOf(TOUR_HEADING);
  const end = readme.indexOf('\n## ', start + TOUR_HEADING.length);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/**
 * What a block's comments say its commands print: every `"key":value` pair they show, except those
 * whose value the README elides (`…`, `...`). `# {"data":{"ok":true,...}}` → `"ok":true`.
 */
function promisedPairs(block: string): string[] {
  const comments = block.split('\n').flatMap((line) => /(?:^|\s)#\s(.*)$/.exec(line)?.[1] ?? []);
  return comments.flatMap((comment) =>
    [...comment.matchAll(/"\w+":(?:"[^"]*"|-?\d+(?:\.\d+)?|true|false|null)/g)]
      .map((m) => m[0])
      .filter((pair) => !pair.includes('…') && !pair.includes('...')),
  );
}

const marker = (i: number) => `@@tour-block-${i}@@`;

// The README's five-minute tour, run as a newcomer would: its commands as written, in one shell,
// from a folder whose data/admin-key holds the platform admin key as `npm start` keeps it, against a
// listening gateway with the demo tenants. The one change: the tour's `export PORT=3000` names the
// test gateway's port. Each block must print what its comments show.
describe("the README's five-minute tour", () => {
  let gw: TestGateway;
  let folder: string;
  let blocks: string[];

  beforeAll(async () => {
    gw = await startTestGateway({ env: { TOOLGATE_LOCALE: 'zh-CN' } });
    folder = mkdtempSync(join(tmpdir(), 'toolgate-tour-'));
    mkdirSync(join(folder, 'data'));
    writeFileSync(join(folder, 'data/admin-key'), `${TEST_ADMIN_KEY}\n`, { mode: 0o600 });
    blocks = tourBlocks(readFileSync(README, 'utf8'));
  });
  afterAll(() => gw?.close());

  it('states PORT before the first command and starts the gateway in its first block', () => {
    expect(blocks.length).toBeGreaterThan(5);
    expect(blocks[0]).toMatch(PORT_LINE);
    expect(blocks[0]).toContain('npm start');
    expect(blocks[1]).toMatch(PORT_LINE);
  });

  it('prints what it shows, command after command', { timeout: 120_000 }, async () => {
    const port = new URL(gw.url).port;
    const script = [
      'set -euo pipefail',
      ...blocks.slice(1).flatMap((block, i) => [block, `printf '\\n${marker(i + 1)}\\n'`]),
      'printf "keys %s %s %s\\n" "$AGENT" "$AUDITOR" "$APPROVER"',
    ]
      .join('\n')
      .replace(PORT_LINE, `export PORT=${port}`);
    const { stdout } = await promisify(execFile)('bash', ['-c', script], {
      cwd: folder,
      env: { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`, HOME: folder, LANG: 'C.UTF-8' },
      maxBuffer: 16 * 1024 * 1024,
    });

    const outputs = stdout.split(/\n@@tour-block-\d+@@\n/);
    for (const [i, block] of blocks.slice(1).entries()) {
      const output = outputs[i]!;
      for (const pair of promisedPairs(block))
        expect(output, `block ${i + 1} promises ${pair}`).toContain(pair);
      for (const refusal of ['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'INTERNAL'])
        expect(output, `block ${i + 1}`).not.toContain(`"code":"${refusal}"`);
    }
    const keys = outputs.at(-1)!.trim().split(' ').slice(1);
    expect(keys).toHaveLength(3);
    for (const key of keys) expect(key).toMatch(/^tg_/);
    expect(readFileSync(join(folder, 'audit.csv'), 'utf8').split('\n').length).toBeGreaterThan(2);
    expect(existsSync(join(folder, 'parked.json'))).toBe(true);
  });

  it('holds the README to its word: the comments promise what the demo answers', () => {
    const promised = blocks.flatMap(promisedPairs);
    for (const pair of ['"status":"healthy"', '"code":"INVALID_INPUT"', '"code":"TIMEOUT"', '"source":"sap"'])
      expect(promised).toContain(pair);
    expect(promised).toContain('"ok":true');
    expect(promised).toContain('"status":"succeeded"');
    // One decision of a tenant's rule and its explanation (issue 26): which rule, what happens next.
    for (const pair of ['"id":"refund-needs-finance"', '"next":"park"', '"approverGroup":"finance"'])
      expect(promised).toContain(pair);
  });
});
