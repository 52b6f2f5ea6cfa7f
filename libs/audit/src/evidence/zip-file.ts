import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { createInflateRaw, crc32 } from 'node:zlib';
import { dataStart, findDirectory, readDirectory, type ZipDirEntry } from './zip.js';

const DEFLATE = 8;
const STORE = 0;

/**
 * A ZIP on disk read entry by entry (ADR 046): the small files whole, a large one as a stream of
 * inflated chunks with its CRC checked at the end, so the offline verifier reads a bundle of any
 * size in bounded memory.
 */
export class ZipFile {
  private constructor(
    private readonly path: string,
    private readonly entries: Map<string, ZipDirEntry>,
    private readonly starts: Map<string, number>,
  ) {}

  static open(path: string): ZipFile {
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      const readAt = (position: number, length: number) => {
        const b = Buffer.alloc(Math.max(0, Math.min(length, size - position)));
        readSync(fd, b, 0, b.length, position);
        return b;
      };
      const tailAt = Math.max(0, size - 22 - 0xffff - 20);
      const where = findDirectory(readAt(tailAt, size - tailAt), readAt);
      const entries = readDirectory(readAt(where.dirOffset, where.dirBytes), where.count);
      const starts = new Map(entries.map((e) => [e.name, dataStart(readAt(e.localOffset, 30), e)]));
      return new ZipFile(path, new Map(entries.map((e) => [e.name, e])), starts);
    } finally {
      closeSync(fd);
    }
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  /** An entry's bytes as chunks; throws at the end when they do not match the CRC. */
  async *chunks(name: string): AsyncGenerator<Buffer> {
    const e = this.entries.get(name);
    if (!e) throw new Error(`${name} is not in the ZIP`);
    if (e.method !== DEFLATE && e.method !== STORE)
      throw new Error(`ZIP entry ${name} uses compression method ${e.method}`);
    const start = this.starts.get(name)!;
    const raw = e.packed
      ? createReadStream(this.path, { start, end: start + e.packed - 1, highWaterMark: 1 << 20 })
      : undefined;
    let crc = 0;
    if (raw) {
      const source = e.method === DEFLATE ? raw.pipe(createInflateRaw()) : raw;
      raw.on('error', (err) => source.destroy(err));
      for await (const chunk of source as AsyncIterable<Buffer>) {
        crc = crc32(chunk, crc);
        yield chunk;
      }
    }
    if (crc !== e.crc) throw new Error(`ZIP entry ${name} is damaged (CRC mismatch)`);
  }

  /** A (small) entry whole. */
  async read(name: string): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const c of this.chunks(name)) parts.push(c);
    return Buffer.concat(parts);
  }
}
