import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import type { ArchiveStore } from './archive-store.js';

/**
 * An ArchiveStore in a directory (local, or a share mounted from elsewhere). Each object is
 * written to a temporary name and renamed, so a reader never sees half a file; no fsync: an
 * object lost in a power cut is written again by the next boot's catch-up (CheckpointArchive),
 * and fsyncing every file made checkpoint-heavy runs 2–3× slower.
 */
export class DirectoryArchiveStore implements ArchiveStore {
  private readonly made = new Set<string>();

  constructor(readonly location: string) {}

  async put(key: string, body: string | Buffer): Promise<void> {
    const path = this.pathOf(key);
    const dir = dirname(path);
    if (!this.made.has(dir)) {
      await mkdir(dir, { recursive: true });
      this.made.add(dir);
    }
    const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(tmp, body);
    await rename(tmp, path);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async list(prefix: string): Promise<string[]> {
    try {
      const names = await readdir(this.pathOf(prefix));
      return names
        .filter((n) => !n.endsWith('.tmp'))
        .sort()
        .map((n) => `${prefix}${n}`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  }

  /** Keys are made by the lib from encoded parts; `..` or an absolute key would be a bug. */
  private pathOf(key: string): string {
    const parts = key.split('/');
    if (parts.some((p) => p === '..' || p.includes(sep) || p.includes('\0')) || key.startsWith('/'))
      throw new Error(`invalid archive key: ${key}`);
    return join(this.location, ...parts);
  }
}
