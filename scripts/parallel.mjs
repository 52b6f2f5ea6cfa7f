// Runs shell commands side by side and fails when any fails: `npm test` runs its static checks and
// the build this way (node scripts/parallel.mjs "npm run -s typecheck" "npm run -s lint" …).
//
// Why: tsc, ESLint, Prettier and the Nest build are each one thread, and they only read the sources
// (the build writes dist/ and apps/console/dist/, which the checks ignore), so on a two-core machine
// the three chains take about as long as the longest of them plus a share, not their sum.
// Each command's output is held and printed whole when it ends, so the log reads as if serial.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import process from 'node:process';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  process.stderr.write('usage: node scripts/parallel.mjs "command" "command" …\n');
  process.exit(2);
}

const started = performance.now();
const results = await Promise.all(
  commands.map(
    (command) =>
      new Promise((resolve) => {
        const t0 = performance.now();
        const out = [];
        const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
        child.stdout.on('data', (chunk) => out.push(chunk));
        child.stderr.on('data', (chunk) => out.push(chunk));
        child.on('close', (code, signal) => {
          const seconds = ((performance.now() - t0) / 1000).toFixed(1);
          process.stdout.write(Buffer.concat(out));
          const failed = code !== 0;
          const end = failed ? `, exit ${code ?? signal}` : '';
          process.stdout.write(`${failed ? '✗' : '✓'} ${command} (${seconds} s${end})\n`);
          resolve(failed);
        });
      }),
  ),
);
const failures = results.filter(Boolean).length;
const total = ((performance.now() - started) / 1000).toFixed(1);
process.stdout.write(`${commands.length - failures}/${commands.length} passed in ${total} s\n`);
process.exit(failures ? 1 : 0);
