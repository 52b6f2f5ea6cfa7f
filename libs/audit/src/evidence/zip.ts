import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * A minimal ZIP (PKWARE APPNOTE 6.3) writer and reader for evidence files: deflated entries, no
 * encryption. `zipFiles` builds a small ZIP in memory (no ZIP64, no data descriptors); the gateway
 * streams evidence with zip-writer.ts (data descriptors, ZIP64), which the readers here and in
 * zip-file.ts take too. No dependency the offline verifier would have to trust.
 */
export interface ZipEntry {
  readonly name: string;
  readonly data: Buffer;
}

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const DEFLATE = 8;
const STORE = 0;
const UTF8_NAMES = 0x0800;
/** 1980-01-01 00:00 in DOS time: entries carry no time of their own (the manifest has one). */
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

/** The bytes of a ZIP holding `entries`, in order. */
export function zipFiles(entries: readonly ZipEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const packed = deflateRawSync(e.data);
    const crc = crc32(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(UTF8_NAMES, 6);
    local.writeUInt16LE(DEFLATE, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(CENTRAL, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(UTF8_NAMES, 8);
    dir.writeUInt16LE(DEFLATE, 10);
    dir.writeUInt16LE(0, 12);
    dir.writeUInt16LE(DOS_DATE, 14);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(packed.length, 20);
    dir.writeUInt32LE(e.data.length, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    parts.push(local, name, packed);
    central.push(dir, name);
    offset += local.length + name.length + packed.length;
  }
  const dirBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dirBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, dirBytes, end]);
}

/** Where an entry is and what it holds, from the central directory (ZIP64 extras read). */
export interface ZipDirEntry {
  readonly name: string;
  readonly method: number;
  readonly crc: number;
  readonly packed: number;
  readonly size: number;
  readonly localOffset: number;
}

/** Where the central directory is, as the end of the file says. */
export interface ZipDirectory {
  readonly count: number;
  readonly dirOffset: number;
  readonly dirBytes: number;
}

const END64 = 0x06064b50;
const END64_LOCATOR = 0x07064b50;
const MAX32 = 0xffffffff;

/**
 * The central directory's place, from the last bytes of a ZIP (`tail`). `readAt(position, length)` reads
 * other bytes of the file (the ZIP64 end record, when the locator points to one outside the tail).
 */
export function findDirectory(
  tail: Buffer,
  readAt: (position: number, length: number) => Buffer,
): ZipDirectory {
  let end = -1;
  for (let i = tail.length - 22; i >= Math.max(0, tail.length - 22 - 0xffff); i--)
    if (tail.readUInt32LE(i) === END) {
      end = i;
      break;
    }
  if (end < 0) throw new Error('not a ZIP file (no end of central directory)');
  const small = {
    count: tail.readUInt16LE(end + 10),
    dirBytes: tail.readUInt32LE(end + 12),
    dirOffset: tail.readUInt32LE(end + 16),
  };
  if (end >= 20 && tail.readUInt32LE(end - 20) === END64_LOCATOR) {
    const end64 = readAt(Number(tail.readBigUInt64LE(end - 12)), 56);
    if (end64.readUInt32LE(0) !== END64) throw new Error('damaged ZIP64 end of central directory');
    return {
      count: Number(end64.readBigUInt64LE(32)),
      dirBytes: Number(end64.readBigUInt64LE(40)),
      dirOffset: Number(end64.readBigUInt64LE(48)),
    };
  }
  return small;
}

/** The central directory's records. */
export function readDirectory(dir: Buffer, count: number): ZipDirEntry[] {
  const out: ZipDirEntry[] = [];
  let at = 0;
  for (let n = 0; n < count; n++) {
    if (dir.readUInt32LE(at) !== CENTRAL) throw new Error('damaged ZIP central directory');
    const nameLength = dir.readUInt16LE(at + 28);
    const extraLength = dir.readUInt16LE(at + 30);
    const name = dir.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    let size = dir.readUInt32LE(at + 24);
    let packed = dir.readUInt32LE(at + 20);
    let localOffset = dir.readUInt32LE(at + 42);
    // ZIP64: the fields that read 0xffffffff are in the extra field, in this order.
    const extra = dir.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength);
    for (let x = 0; x + 4 <= extra.length;) {
      const [id, length] = [extra.readUInt16LE(x), extra.readUInt16LE(x + 2)];
      if (id === 0x0001) {
        let v = x + 4;
        const next = () => {
          const value = Number(extra.readBigUInt64LE(v));
          v += 8;
          return value;
        };
        if (size === MAX32) size = next();
        if (packed === MAX32) packed = next();
        if (localOffset === MAX32) localOffset = next();
      }
      x += 4 + length;
    }
    out.push({
      name,
      method: dir.readUInt16LE(at + 10),
      crc: dir.readUInt32LE(at + 16),
      packed,
      size,
      localOffset,
    });
    at += 46 + nameLength + extraLength + dir.readUInt16LE(at + 32);
  }
  return out;
}

/** Where an entry's data starts, from its local header (its first 30 bytes). */
export function dataStart(local: Buffer, entry: ZipDirEntry): number {
  if (local.readUInt32LE(0) !== LOCAL) throw new Error(`damaged ZIP entry ${entry.name}`);
  return entry.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
}

/** The entries of a ZIP by name; throws on anything this reader does not handle or a bad CRC. */
export function unzipFiles(zip: Buffer): Map<string, Buffer> {
  const tailAt = Math.max(0, zip.length - 22 - 0xffff - 20);
  const where = findDirectory(zip.subarray(tailAt), (p, n) => zip.subarray(p, p + n));
  const entries = readDirectory(zip.subarray(where.dirOffset, where.dirOffset + where.dirBytes), where.count);
  const out = new Map<string, Buffer>();
  for (const e of entries) {
    const start = dataStart(zip.subarray(e.localOffset, e.localOffset + 30), e);
    const raw = zip.subarray(start, start + e.packed);
    const data =
      e.method === DEFLATE ? inflateRawSync(raw) : e.method === STORE ? Buffer.from(raw) : undefined;
    if (!data) throw new Error(`ZIP entry ${e.name} uses compression method ${e.method}`);
    if (crc32(data) !== e.crc) throw new Error(`ZIP entry ${e.name} is damaged (CRC mismatch)`);
    out.set(e.name, data);
  }
  return out;
}
