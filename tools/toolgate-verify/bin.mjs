#!/usr/bin/env node
// `npx toolgate-verify <evidence.zip | directory>`: the verifier of libs/audit, compiled into the
// root dist/ by `npm run build`. A package of its own (a devDependency of the root) because a root
// package.json `bin` is not what `npx` runs inside the repository.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = join(root, 'dist/libs/audit/src/evidence/verify-cli.js');
if (!existsSync(cli)) {
  process.stderr.write(`toolgate-verify: ${cli} is missing; run \`npm run build\` first\n`);
  process.exit(2);
}
const { main } = await import(pathToFileURL(cli).href);
process.exit(await main(process.argv.slice(2)));
