import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';
import { CONFIGURATION_REFERENCE_FILE, renderConfigurationReference } from './configuration-reference.js';
import { envSchema } from './settings.js';

const ROOT = join(import.meta.dirname, '../../../..');
const file = join(ROOT, CONFIGURATION_REFERENCE_FILE);

describe('docs/configuration.md is generated from the settings schemas', () => {
  it('is what npm run docs:config writes today (run it after changing a setting)', async () => {
    const generated = await format(renderConfigurationReference(), {
      ...(await resolveConfig(file)),
      filepath: file,
    });
    expect(readFileSync(file, 'utf8'), 'docs/configuration.md is stale: run npm run docs:config').toBe(
      generated,
    );
  });

  it('lists every environment variable and every key of config/toolgate.yaml', () => {
    const page = renderConfigurationReference();
    for (const name of Object.keys(envSchema.shape)) expect(page).toContain(`| \`${name}\` |`);
    for (const key of ['server.bodyLimitBytes', 'auth.oidc.rules[].claim', 'models.providers.<name>.apiKey'])
      expect(page).toContain(`| \`${key}\` |`);
  });

  it('shows the defaults the code uses, with a reading of durations', () => {
    const page = renderConfigurationReference();
    expect(page).toContain('| `approvals.expiryMs` | `86400000` (24 h) |');
    expect(page).toContain('| `server.bodyLimitBytes` | `1048576` (1 MiB) |');
    expect(page).toContain('| `auth.oidc.sessionTtlMs` | `28800000` (8 h) |');
    expect(page).toContain('| `auth.oidc.issuer` | required |');
  });
});
