import { describe, expect, it } from 'vitest';
import { startupBanner } from './banner.js';
import { loadSettings } from './settings/settings.js';

const settings = loadSettings({ DATABASE_URL: 'mysql://toolgate:s3cret@db:3306/toolgate', PORT: '8080' });
const secret = 'tg_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';

describe('the start-up banner', () => {
  it('names the console, the API, its docs, the port and the database without its password', () => {
    const banner = startupBanner('http://localhost:8080', settings, { source: 'environment' });
    expect(banner).toMatch(/serving on http:\/\/localhost:8080\n/);
    expect(banner).toContain('http://localhost:8080/console');
    expect(banner).toContain('http://localhost:8080/v1');
    expect(banner).toContain('http://localhost:8080/docs');
    expect(banner).toMatch(/port {7}8080/);
    expect(banner).toContain('mysql://***@db:3306/toolgate');
    expect(banner).not.toContain('s3cret');
    expect(banner).toContain('TOOLGATE_ADMIN_KEY');
  });

  it('shows a kept admin key in full only at the boot that made it', () => {
    const made = startupBanner('http://localhost:8080', settings, {
      source: 'created',
      secret,
      file: 'data/admin-key',
    });
    expect(made).toContain(secret);
    expect(made).toContain('kept in data/admin-key');
    const later = startupBanner('http://localhost:8080', settings, {
      source: 'file',
      file: 'data/admin-key',
    });
    expect(later).not.toContain('tg_');
    expect(later).toContain('export ADMIN=$(cat data/admin-key)');
  });
});
