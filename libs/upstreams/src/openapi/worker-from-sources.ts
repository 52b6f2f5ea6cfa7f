import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * A worker's TypeScript module compiled to JavaScript with the files it imports, for when the
 * gateway runs from its sources (the test runner compiles what it imports, not a thread's code,
 * and Node 20 cannot run TypeScript). Relative imports are followed; the graph must stay in the
 * entry's directory and not use the `@toolgate/*` aliases. The files go under the repository's `node_modules/.cache`, so
 * package imports resolve as they do for the sources, in a directory named by the hash of the
 * compiled code (test processes are killed, not exited: nothing per-process would be cleaned up).
 * Never used by a build (`dist` has the `.js`).
 */
export async function workerEntryFromSources(entry: URL): Promise<URL> {
  // A development dependency: only ever loaded when running from sources.
  const { transform } = await import('@swc/core');
  const entryPath = fileURLToPath(entry);
  const sourceRoot = dirname(entryPath);
  const files = new Map<string, string>();
  const compile = async (source: string): Promise<void> => {
    if (files.has(source)) return;
    if (relative(sourceRoot, source).startsWith('..'))
      throw new Error(`${source} is outside the worker's directory ${sourceRoot}`);
    files.set(source, '');
    const { code } = await transform(await readFile(source, 'utf8'), {
      filename: source,
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'es6' },
    });
    files.set(source, code);
    for (const [, specifier] of code.matchAll(/^(?:import|export)\s[^;]*?from\s*['"]([^'"]+)['"]/gm)) {
      if (specifier!.startsWith('@toolgate/'))
        throw new Error(`${source} imports ${specifier}: a worker's files cannot use the path aliases`);
      if (specifier!.startsWith('.'))
        await compile(resolve(dirname(source), specifier!.replace(/\.js$/, '.ts')));
    }
  };
  await compile(entryPath);

  const hash = createHash('sha256');
  for (const [source, code] of [...files].sort(([a], [b]) => a.localeCompare(b)))
    hash.update(`${relative(sourceRoot, source)}\u0000${code}\u0000`);
  const cache = join(nodeModulesOf(entryPath), '.cache');
  const target = join(cache, `toolgate-worker-${hash.digest('hex').slice(0, 16)}`);
  const at = (root: string, source: string) => join(root, jsPath(relative(sourceRoot, source)));
  if (!existsSync(at(target, entryPath))) {
    await mkdir(cache, { recursive: true });
    // Written aside and renamed into place: another test process may be reading the same directory.
    const staging = await mkdtemp(`${target}-`);
    for (const [source, code] of files) {
      await mkdir(dirname(at(staging, source)), { recursive: true });
      await writeFile(at(staging, source), code);
    }
    await rename(staging, target).catch(() => rm(staging, { recursive: true, force: true }));
  }
  return pathToFileURL(at(target, entryPath));
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
