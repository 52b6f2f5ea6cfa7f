import { mkdtempSync, writeFileSync } from 'node:fs';
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

  it('allows on /mcp/* the configured origins and the gateway’s own, never a wildcard host', () => {
    const base = { TOOLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'toolgate-settings-')) };
    const cfg = mkdtempSync(join(tmpdir(), 'tg-cfg-'));
    writeFileSync(join(cfg, 'toolgate.yaml'), 'mcp:\n  allowedOrigins: [https://console.example.com]\n');
    expect(loadSettings({ ...base, TOOLGATE_CONFIG_DIR: cfg }).mcp.allowedOrigins).toEqual([
      'https://console.example.com',
      'http://127.0.0.1:3000',
    ]);
    const own = loadSettings({
      ...base,
      HOST: '0.0.0.0',
      TOOLGATE_PUBLIC_URL: 'https://toolgate.example.com/some/path',
      TOOLGATE_MCP_ALLOWED_ORIGINS: 'http://localhost:5173, https://a.example.com',
      TOOLGATE_CONFIG_DIR: cfg,
    });
    // The environment replaces the file's list; 0.0.0.0 is no page's origin.
    expect(own.mcp.allowedOrigins).toEqual([
      'http://localhost:5173',
      'https://a.example.com',
      'https://toolgate.example.com',
    ]);
    for (const bad of ['https://a.example.com/path', '*', 'ftp://a.example.com', 'https://A.example.com']) {
      expect(() => loadSettings({ ...base, TOOLGATE_MCP_ALLOWED_ORIGINS: bad }), bad).toThrow(/ORIGINS/);
    }
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

  it('gives each deployment its own Redis namespace by default: one per database, never the credentials', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-settings-'));
    const prefix = (env: Record<string, string>) => {
      const s = loadSettings({ TOOLGATE_DATA_DIR: dataDir, ...env });
      expect(s.quotas.redisPrefix).toBe(s.approvals.redisPrefix);
      return s.quotas.redisPrefix;
    };
    const one = prefix({ DATABASE_URL: 'mysql://app:pw@db.internal:3306/toolgate_one' });
    expect(one).toMatch(/^toolgate:[0-9a-f]{12}$/);
    expect(prefix({ DATABASE_URL: 'mysql://other:secret@DB.internal:3306/toolgate_one' })).toBe(one);
    expect(prefix({ DATABASE_URL: 'mysql://app:pw@db.internal:3306/toolgate_two' })).not.toBe(one);
    expect(prefix({ DATABASE_URL: 'mysql://app:pw@db2.internal:3306/toolgate_one' })).not.toBe(one);
    expect(prefix({})).not.toBe(prefix({ TOOLGATE_DATA_DIR: `${dataDir}/other` }));
    expect(
      prefix({
        DATABASE_URL: 'mysql://app:pw@db.internal:3306/toolgate_one',
        TOOLGATE_REDIS_PREFIX: 'acme-prod',
      }),
    ).toBe('acme-prod');
  });
});
