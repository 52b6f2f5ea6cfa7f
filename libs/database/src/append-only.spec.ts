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
});
