import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';

/** The page `--write-docs` writes into, from the repository's root (where `npm run` starts). */
const PAGE = 'docs/benchmarks.md';
const START = /<!-- bench:start[^>]*-->/;
const END = '<!-- bench:end -->';

/** Every table this run printed, in order, as Markdown. */
const tables: string[] = [];

/** Keeps a printed table for `--write-docs`. */
export function recordTable(markdown: string): void {
  tables.push(markdown.trim());
}

/**
 * The block between the page's bench markers with this run's tables (the rest of the page, the
 * report written by hand, is left alone).
 * @example replaceRunBlock(page, '### In-process …\n\n| call | p50 µs |…') // page with the new block
 */
export function replaceRunBlock(page: string, block: string): string {
  const start = START.exec(page);
  const end = page.indexOf(END);
  if (!start || end < start.index) throw new Error(`${PAGE} has no bench:start … bench:end block`);
  const head = page.slice(0, start.index + start[0].length);
  return `${head}\n\n${block}\n\n${page.slice(end)}`;
}

/** Writes this run's tables into docs/benchmarks.md, under a line saying when, where and what. */
export async function writeRunToDocs(args: readonly string[], root = process.cwd()): Promise<string> {
  const file = join(root, PAGE);
  const cpu = cpus();
  const sections = args.includes('--only')
    ? `\`--only ${args[args.indexOf('--only') + 1]}\``
    : 'every section';
  const block = [
    `Written ${new Date().toISOString()} by \`npm run bench -- --write-docs\`: ${sections}, Node ${process.version}, ` +
      `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}.`,
    ...tables,
  ].join('\n\n');
  const page = replaceRunBlock(readFileSync(file, 'utf8'), block);
  writeFileSync(file, await format(page, { ...(await resolveConfig(file)), filepath: file }));
  return PAGE;
}
