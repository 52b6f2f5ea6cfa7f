import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { afterEach, describe, expect, it } from 'vitest';
import { guardAppendOnly, guardedTables } from './append-only.js';
import { runMigrationsLocked } from './migration-runner.js';

class CreateTrail1700000000000 implements MigrationInterface {
  async up(q: QueryRunner) {
    await q.query('CREATE TABLE trail (id INTEGER PRIMARY KEY, note TEXT)');
    await q.query("INSERT INTO trail (id, note) VALUES (1, 'first')");
  }
  async down() {}
}

/** A later migration that rewrites rows of a guarded table (a backfill). */
class BackfillTrail1700000001000 implements MigrationInterface {
  async up(q: QueryRunner) {
    await q.query("UPDATE trail SET note = 'backfilled'");
  }
  async down() {}
}

const open = (migrations: (new () => MigrationInterface)[], file = ':memory:') =>
  new DataSource({ type: 'better-sqlite3', database: file, migrations }).initialize();

describe('append-only tables', () => {
  let ds: DataSource | undefined;
  afterEach(async () => ds?.destroy());

  it('refuses UPDATE and DELETE once guarded, and is idempotent', async () => {
    ds = await open([CreateTrail1700000000000]);
    await runMigrationsLocked(ds, { known: ['trail'], guard: true });
    await guardAppendOnly(ds, ['trail']);
    await ds.query("INSERT INTO trail (id, note) VALUES (2, 'second')");
    await expect(ds.query("UPDATE trail SET note = 'x'")).rejects.toThrow(/append-only/);
    await expect(ds.query('DELETE FROM trail')).rejects.toThrow(/append-only/);
    expect(await guardedTables(ds, ['trail', 'other'])).toEqual(['trail']);
  });

  it('comes off for a migration that rewrites rows and goes back on after it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'toolgate-append-only-')), 'db.sqlite');
    const first = await open([CreateTrail1700000000000], file);
    await runMigrationsLocked(first, { known: ['trail'], guard: true });
    await first.destroy();
    const both = await open([CreateTrail1700000000000, BackfillTrail1700000001000], file);
    ds = both;
    await runMigrationsLocked(both, { known: ['trail'], guard: true });
    expect(await both.query('SELECT note FROM trail')).toEqual([{ note: 'backfilled' }]);
    await expect(both.query("UPDATE trail SET note = 'x'")).rejects.toThrow(/append-only/);
  });

  it('installs nothing where the profile never asked', async () => {
    ds = await open([CreateTrail1700000000000]);
    await runMigrationsLocked(ds, { known: ['trail'], guard: false });
    await ds.query("UPDATE trail SET note = 'changed'");
    expect(await guardedTables(ds, ['trail'])).toEqual([]);
  });

  it('lets a purge exemption delete only within its window, and replaces the guard when the exemption goes', async () => {
    ds = await open([]);
    await ds.query('CREATE TABLE chain (tenant_id TEXT, seq INTEGER, PRIMARY KEY (tenant_id, seq))');
    await ds.query('CREATE TABLE windows (tenant_id TEXT PRIMARY KEY, window_seq INTEGER)');
    for (const seq of [1, 2, 3, 4]) await ds.query("INSERT INTO chain VALUES ('a', ?), ('b', ?)", [seq, seq]);
    const purge = { table: 'chain', windowTable: 'windows', windowColumn: 'window_seq' };
    await guardAppendOnly(ds, ['chain'], purge);
    await expect(ds.query("DELETE FROM chain WHERE tenant_id = 'a' AND seq = 1")).rejects.toThrow(
      /append-only/,
    );
    await ds.query("INSERT INTO windows VALUES ('a', 2)");
    await ds.query("DELETE FROM chain WHERE tenant_id = 'a' AND seq <= 2");
    // Another tenant's rows, and rows past the window, stay guarded.
    await expect(ds.query("DELETE FROM chain WHERE tenant_id = 'b' AND seq = 1")).rejects.toThrow(
      /append-only/,
    );
    await expect(ds.query("DELETE FROM chain WHERE tenant_id = 'a' AND seq = 3")).rejects.toThrow(
      /append-only/,
    );
    await expect(ds.query("UPDATE chain SET seq = 9 WHERE tenant_id = 'a' AND seq = 3")).rejects.toThrow(
      /append-only/,
    );
    expect(await guardedTables(ds, ['chain'])).toEqual(['chain']);
    // Without the exemption the plain guard comes back: nothing may be deleted, window or not.
    await guardAppendOnly(ds, ['chain']);
    await ds.query("UPDATE windows SET window_seq = 4 WHERE tenant_id = 'a'");
    await expect(ds.query("DELETE FROM chain WHERE tenant_id = 'a' AND seq = 3")).rejects.toThrow(
      /append-only/,
    );
    const triggers = (await ds.query(
      "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name",
    )) as {
      name: string;
    }[];
    expect(triggers.map((t) => t.name)).toEqual(['chain_no_delete', 'chain_no_update']);
  });
});
