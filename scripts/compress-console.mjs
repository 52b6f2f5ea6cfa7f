// Writes .br and .gz next to every text asset of the console build, so the gateway serves them
// precompressed (no compression work per request). Run by `npm run build:console`.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = process.argv[2] ?? 'apps/console/dist';
const TEXT = /\.(js|css|html|svg|json|txt|map)$/;
let raw = 0;
let br = 0;
let gz = 0;
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) walk(file);
    else if (TEXT.test(name)) {
      const data = readFileSync(file);
      const b = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
      const g = gzipSync(data, { level: 9 });
      writeFileSync(`${file}.br`, b);
      writeFileSync(`${file}.gz`, g);
      raw += data.length;
      br += b.length;
      gz += g.length;
    }
  }
};
walk(dist);
const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
process.stdout.write(`console build: ${kb(raw)} raw, ${kb(gz)} gzip, ${kb(br)} brotli\n`);
