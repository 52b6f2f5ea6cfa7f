import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings } from './settings.js';

describe('loadSettings', () => {
  it('keeps the embedded database in TOOLGATE_DATA_DIR unless DATABASE_URL says otherwise', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-settings-'));
    expect(loadSettings({ TOOLGATE_DATA_DIR: dataDir }).database.url).toBe(
      `sqlite:${dataDir}/toolgate.sqlite`,
    );
    expect(
      loadSettings({ TOOLGATE_DATA_DIR: dataDir, DATABASE_URL: 'mysql://root@127.0.0.1:3306/x' }).database
        .url,
    ).toBe('mysql://root@127.0.0.1:3306/x');
    expect(loadSettings({ TOOLGATE_DATA_DIR: dataDir }).tenancy.demo).toBe(true);
  });
});
