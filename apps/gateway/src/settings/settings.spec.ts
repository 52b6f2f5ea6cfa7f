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

  it('follows tenant files on SQLite and not on MySQL unless TOOLGATE_WATCH_TENANT_FILES says so', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-settings-'));
    const mysql = 'mysql://root@127.0.0.1:3306/x';
    expect(loadSettings({ TOOLGATE_DATA_DIR: dataDir }).tenancy.watchFiles).toBe(true);
    expect(loadSettings({ TOOLGATE_DATA_DIR: dataDir, DATABASE_URL: mysql }).tenancy.watchFiles).toBe(false);
    expect(
      loadSettings({ TOOLGATE_DATA_DIR: dataDir, DATABASE_URL: mysql, TOOLGATE_WATCH_TENANT_FILES: 'on' })
        .tenancy.watchFiles,
    ).toBe(true);
    expect(
      loadSettings({ TOOLGATE_DATA_DIR: dataDir, TOOLGATE_WATCH_TENANT_FILES: 'off' }).tenancy.watchFiles,
    ).toBe(false);
  });

  it('keeps the generated admin key in the data directory, and takes the log format when asked', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-settings-'));
    expect(loadSettings({ TOOLGATE_DATA_DIR: dataDir }).auth.adminKeyFile).toBe(join(dataDir, 'admin-key'));
    expect(loadSettings({ TOOLGATE_DATA_DIR: dataDir, TOOLGATE_LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(loadSettings({ TOOLGATE_DATA_DIR: dataDir, TOOLGATE_LOG_FORMAT: 'pretty' }).logFormat).toBe(
      'pretty',
    );
    expect(() => loadSettings({ TOOLGATE_DATA_DIR: dataDir, TOOLGATE_LOG_FORMAT: 'xml' })).toThrow(
      /TOOLGATE_LOG_FORMAT/,
    );
  });
});
