import { existsSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * A worker's TypeScript module compiled to JavaScript with the files it imports, for when the
 * gateway runs from its sources (the test runner compiles what it imports, not a thread's code,
 * and Node 20 cannot run TypeScript). Relative imports are followed; the graph must not use
 * the `@toolgate/*` aliases. The files go under the repository's `node_modules/.cache`, so
 * package imports resolve as they do for the sources. Never used by a build (`dist` has the `.js`).
 */
export async function workerEntryFromSources(entry: URL): Promise<URL> {
  // A development dependency: only ever loaded when running from sources.
  const { transform } = await import('@swc/core');
  const entryPath = fileURLToPath(entry);
  const cache = join(nodeModulesOf(entryPath), '.cache');
  await mkdir(cache, { recursive: true });
  const root = await mkdtemp(join(cache, 'toolgate-worker-'));
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  const done = new Set<string>();
  const compile = async (source: string): Promise<void> => {
    if (done.has(source)) return;
    done.add(source);
    const { code } = await transform(await readFile(source, 'utf8'), {
      filename: source,
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'es6' },
    });
    const target = join(root, jsPath(source));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, code);
    for (const [, specifier] of code.matchAll(/^(?:import|export)\s[^;]*?from\s*['"]([^'"]+)['"]/gm)) {
      if (specifier!.startsWith('@toolgate/'))
        throw new Error(`${source} imports ${specifier}: a worker's files cannot use the path aliases`);
      if (specifier!.startsWith('.'))
        await compile(resolve(dirname(source), specifier!.replace(/\.js$/, '.ts')));
    }
  };
  await compile(entryPath);
  return pathToFileURL(join(root, jsPath(entryPath)));
}

function jsPath(source: string): string {
  return source.replace(/\.ts$/, '.js');
}

/** The nearest `node_modules` above `file`. */
function nodeModulesOf(file: string): string {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules');
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`no node_modules above ${file}`);
}
