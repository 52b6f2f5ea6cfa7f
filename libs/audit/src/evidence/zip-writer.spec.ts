import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unzipFiles } from './zip.js';
import { ZipFile } from './zip-file.js';
import { ZipStreamWriter } from './zip-writer.js';

const line = (i: number) => Buffer.from(`{"seq":${i},"名":"张三","pad":"${'x'.repeat(i % 50)}"}\n`);
async function* lines(n: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < n; i++) yield line(i);
}

// ADR 046: the streamed ZIP (data descriptors, ZIP64 extras) reads back with our readers and others'.
describe('ZipStreamWriter', () => {
  it('writes entries as they come, read back whole and as a stream, and by Python', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'toolgate-zip-')), 'x.zip');
    const out = createWriteStream(path);
    const zip = new ZipStreamWriter(out);
    await zip.addStream('events.jsonl', lines(5_000));
    await zip.add('manifest.json', Buffer.from('{"kind":"x"}\n'));
    await zip.add('empty', Buffer.alloc(0));
    await zip.finish();
    out.end();
    await once(out, 'finish');
    expect(readFileSync(path).length).toBe(zip.bytes);

    const expected = Buffer.concat(Array.from({ length: 5_000 }, (_, i) => line(i)));
    const whole = unzipFiles(readFileSync(path));
    expect([...whole.keys()]).toEqual(['events.jsonl', 'manifest.json', 'empty']);
    expect(whole.get('events.jsonl')!.equals(expected)).toBe(true);
    const file = ZipFile.open(path);
    const chunks: Buffer[] = [];
    for await (const c of file.chunks('events.jsonl')) chunks.push(c);
    expect(Buffer.concat(chunks).equals(expected)).toBe(true);
    expect((await file.read('empty')).length).toBe(0);

    const listed = execFileSync('python3', [
      '-c',
      'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(",".join(f"{i.filename}:{i.file_size}" for i in z.infolist()))',
      path,
    ]).toString();
    expect(listed.trim()).toBe(`events.jsonl:${expected.length},manifest.json:13,empty:0`);
  });

  it('finds a damaged entry by its CRC while streaming it', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'toolgate-zip-')), 'x.zip');
    const out = createWriteStream(path);
    const zip = new ZipStreamWriter(out);
    await zip.add('a.txt', Buffer.from('a'.repeat(1000)));
    await zip.finish();
    out.end();
    await once(out, 'finish');
    const bytes = readFileSync(path);
    // The stored (deflated) data starts after the 30-byte header, the name and the 20-byte extra.
    const tampered = Buffer.from(bytes);
    tampered[30 + 5 + 20 + 1]! ^= 0x10;
    writeFileSync(path, tampered);
    await expect(ZipFile.open(path).read('a.txt')).rejects.toThrow(/damaged|invalid/);
  });
});
