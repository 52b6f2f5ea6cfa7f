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
