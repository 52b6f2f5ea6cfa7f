// `npm start`'s first half: builds the gateway and the console only when their sources changed since
// the build this script last ran, so a second start goes straight to `node dist/...` (issue 22).
//
// What each build reads is hashed by content (path + bytes, so a checkout or `touch` that changes
// nothing rebuilds nothing) and compared with the hash recorded after the last successful build,
// together with the size and mtime of what that build wrote: a `dist` rebuilt since by someone else
// (`npm run build`, `npm test`) is not trusted and is built again. The record lives in
// node_modules/.cache (wiped by `npm ci`, so new dependencies rebuild too). The build's own output is
// kept out of the terminal and shown only when it fails. Names given as arguments (`node
// scripts/start.mjs gateway`) limit it to those builds: `npm run docs:config` needs only the gateway.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join(root, 'node_modules/.cache/toolgate/start-stamp.json');
const SHARED = ['package.json', 'package-lock.json'];

/** The two builds of `npm run build`: what each reads, what proves it ran, how to run it alone. */
const TARGETS = [
  {
    name: 'gateway',
    // tsconfig.build.json's include and exclude.
    inputs: [
      ...SHARED,
      'tsconfig.json',
      'tsconfig.build.json',
      'nest-cli.json',
      'apps/gateway/src',
      'libs',
      'test/bench',
      'test/support',
      'test/browser/console-browser.ts',
    ],
    skip: (path) => /\.(e2e-)?spec\.ts$/.test(path) || path.split('/').includes('testing'),
    output: 'dist/apps/gateway/src/main.js',
    command: ['npx', ['--no-install', 'nest', 'build', 'gateway']],
  },
  {
    name: 'console',
    inputs: [...SHARED, 'apps/console', 'libs/contract/src', 'scripts/compress-console.mjs'],
    skip: (path) => path.startsWith('apps/console/dist/'),
    output: 'apps/console/dist/index.html',
    command: ['npm', ['run', '--silent', 'build:console']],
  },
];

function filesUnder(path, skip) {
  const abs = join(root, path);
  if (!existsSync(abs)) return [];
  if (!statSync(abs).isDirectory()) return skip(path) ? [] : [path];
  return readdirSync(abs, { withFileTypes: true })
    .filter((e) => e.name !== 'node_modules')
    .flatMap((e) => filesUnder(`${path}/${e.name}`, skip));
}

function sourceHash(target) {
  const hash = createHash('sha256');
  const files = target.inputs.flatMap((p) => filesUnder(p, target.skip)).sort();
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update('\0');
  return hash.digest('hex');
}

function outputId(target) {
  const file = join(root, target.output);
  if (!existsSync(file)) return null;
  const s = statSync(file);
  return `${s.size}:${s.mtimeMs}`;
}

function readStamps() {
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    return {};
  }
}

function build(target) {
  const [command, args] = target.command;
  const started = Date.now();
  process.stdout.write(`  building the ${target.name}… `);
  const run = spawnSync(command, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) {
    process.stdout.write('failed\n\n');
    process.stderr.write(`${run.stdout ?? ''}${run.stderr ?? ''}${run.error ? String(run.error) : ''}\n`);
    process.exit(run.status || 1);
  }
  process.stdout.write(`done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

const only = process.argv.slice(2);
const wanted = only.length ? TARGETS.filter((target) => only.includes(target.name)) : TARGETS;
const stamps = readStamps();
const stale = wanted
  .map((target) => ({ target, hash: sourceHash(target) }))
  .filter(({ target, hash }) => {
    const stamp = stamps[target.name];
    const output = outputId(target);
    return !stamp || stamp.hash !== hash || output === null || stamp.output !== output;
  });
if (stale.length) {
  process.stdout.write(
    `\n  sources changed since the last build (${stale.map((s) => s.target.name).join(', ')}); building once\n`,
  );
  // The gateway's build empties dist/ first (nest-cli.json deleteOutDir), the console's its own dist.
  for (const { target, hash } of stale) {
    build(target);
    stamps[target.name] = { hash, output: outputId(target) };
  }
  mkdirSync(dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, `${JSON.stringify(stamps, null, 2)}\n`);
}
