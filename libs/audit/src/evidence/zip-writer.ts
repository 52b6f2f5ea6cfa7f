import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { createDeflateRaw, crc32 } from 'node:zlib';

/**
 * A streaming ZIP writer (PKWARE APPNOTE 6.3) for evidence files of any size (ADR 046): each entry
 * is deflated as its bytes arrive and written at once, with its CRC and sizes in a data descriptor
 * after it, so nothing larger than one chunk is held. Every entry carries a ZIP64 extra field and a
 * ZIP64 data descriptor (8-byte sizes), and the end of the archive a ZIP64 end record when offsets
 * pass 4 GiB, so a 10-million-event file is still one ZIP. The reader (zip.ts, zip-file.ts) takes
 * what this writes; so do `unzip`, Python's zipfile and the desktop tools.
 */

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const DESCRIPTOR = 0x08074b50;
const END = 0x06054b50;
const END64 = 0x06064b50;
const END64_LOCATOR = 0x07064b50;
const ZIP64_EXTRA = 0x0001;
const DEFLATE = 8;
/** Bit 3: CRC and sizes follow the data; bit 11: UTF-8 names. */
const FLAGS = 0x0008 | 0x0800;
/** Version needed to extract: 4.5, ZIP64. */
const VERSION = 45;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const MAX32 = 0xffffffff;

interface Written {
  readonly name: Buffer;
  readonly crc: number;
  readonly packed: number;
  readonly size: number;
  readonly offset: number;
}

export class ZipStreamWriter {
  private offset = 0;
  private readonly entries: Written[] = [];

  constructor(private readonly out: Writable) {}

  /** Bytes written so far (the whole file's size once `finish` resolved). */
  get bytes(): number {
    return this.offset;
  }

  /** One entry from a whole buffer (the small files of a bundle). */
  add(name: string, data: Buffer): Promise<void> {
    return this.addStream(name, [data]);
  }

  /** One entry from chunks, deflated and written as they come. */
  async addStream(name: string, chunks: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<void> {
    const nameBytes = Buffer.from(name, 'utf8');
    const offset = this.offset;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(VERSION, 4);
    local.writeUInt16LE(FLAGS, 6);
    local.writeUInt16LE(DEFLATE, 8);
    local.writeUInt16LE(DOS_DATE, 12);
    // CRC and sizes are in the data descriptor; 0xffffffff sends readers to the ZIP64 extra.
    local.writeUInt32LE(MAX32, 18);
    local.writeUInt32LE(MAX32, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(20, 28);
    const extra = Buffer.alloc(20);
    extra.writeUInt16LE(ZIP64_EXTRA, 0);
    extra.writeUInt16LE(16, 2);
    await this.write(Buffer.concat([local, nameBytes, extra]));

    let crc = 0;
    let size = 0;
    let packed = 0;
    const deflate = createDeflateRaw();
    const pumped = (async () => {
      for await (const out of deflate as AsyncIterable<Buffer>) {
        packed += out.length;
        await this.write(out);
      }
    })();
    try {
      for await (const chunk of chunks) {
        if (!chunk.length) continue;
        crc = crc32(chunk, crc);
        size += chunk.length;
        if (!deflate.write(chunk)) await once(deflate, 'drain');
      }
      deflate.end();
    } catch (err) {
      deflate.destroy(err as Error);
      await pumped.catch(() => undefined);
      throw err;
    }
    await pumped;

    const descriptor = Buffer.alloc(24);
    descriptor.writeUInt32LE(DESCRIPTOR, 0);
    descriptor.writeUInt32LE(crc, 4);
    descriptor.writeBigUInt64LE(BigInt(packed), 8);
    descriptor.writeBigUInt64LE(BigInt(size), 16);
    await this.write(descriptor);
    this.entries.push({ name: nameBytes, crc, packed, size, offset });
  }

  /** Writes the central directory and the end records; the ZIP is complete after it. */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const e of this.entries) await this.write(central(e));
    const dirBytes = this.offset - start;
    const count = this.entries.length;
    if (start >= MAX32 || dirBytes >= MAX32 || count >= 0xffff) {
      const end64At = this.offset;
      const end64 = Buffer.alloc(56);
      end64.writeUInt32LE(END64, 0);
      end64.writeBigUInt64LE(44n, 4);
      end64.writeUInt16LE(VERSION, 12);
      end64.writeUInt16LE(VERSION, 14);
      end64.writeBigUInt64LE(BigInt(count), 24);
      end64.writeBigUInt64LE(BigInt(count), 32);
      end64.writeBigUInt64LE(BigInt(dirBytes), 40);
      end64.writeBigUInt64LE(BigInt(start), 48);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(END64_LOCATOR, 0);
      locator.writeBigUInt64LE(BigInt(end64At), 8);
      locator.writeUInt32LE(1, 16);
      await this.write(Buffer.concat([end64, locator]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(END, 0);
    end.writeUInt16LE(Math.min(count, 0xffff), 8);
    end.writeUInt16LE(Math.min(count, 0xffff), 10);
    end.writeUInt32LE(Math.min(dirBytes, MAX32), 12);
    end.writeUInt32LE(Math.min(start, MAX32), 16);
    await this.write(end);
  }

  /** Writes with backpressure: a slow reader of the download slows the database reads down. */
  private async write(chunk: Buffer): Promise<void> {
    this.offset += chunk.length;
    if (!this.out.write(chunk)) await once(this.out, 'drain');
  }
}

/** A central directory record; sizes and offset in a ZIP64 extra when they pass 32 bits. */
function central(e: Written): Buffer {
  const big = [e.size, e.packed, e.offset].map((v) => v >= MAX32);
  const extraValues = [e.size, e.packed, e.offset].filter((_, i) => big[i]);
  const extra = Buffer.alloc(extraValues.length ? 4 + 8 * extraValues.length : 0);
  if (extraValues.length) {
    extra.writeUInt16LE(ZIP64_EXTRA, 0);
    extra.writeUInt16LE(8 * extraValues.length, 2);
    extraValues.forEach((v, i) => extra.writeBigUInt64LE(BigInt(v), 4 + 8 * i));
  }
  const dir = Buffer.alloc(46);
  dir.writeUInt32LE(CENTRAL, 0);
  dir.writeUInt16LE(VERSION, 4);
  dir.writeUInt16LE(VERSION, 6);
  dir.writeUInt16LE(FLAGS, 8);
  dir.writeUInt16LE(DEFLATE, 10);
  dir.writeUInt16LE(DOS_DATE, 14);
  dir.writeUInt32LE(e.crc, 16);
  dir.writeUInt32LE(big[1] ? MAX32 : e.packed, 20);
  dir.writeUInt32LE(big[0] ? MAX32 : e.size, 24);
  dir.writeUInt16LE(e.name.length, 28);
  dir.writeUInt16LE(extra.length, 30);
  dir.writeUInt32LE(big[2] ? MAX32 : e.offset, 42);
  return Buffer.concat([dir, e.name, extra]);
}
