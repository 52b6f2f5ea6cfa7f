import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { FILE_DEFAULTS } from './file-defaults.js';
import { platformFileSchema } from './platform-file.js';
import { loadSettings } from './settings.js';

/** The settings file shipped in the repository, which documents every default. */
const CONFIG_DIR = join(import.meta.dirname, '../../../../config');
const shipped: unknown = parseYaml(readFileSync(join(CONFIG_DIR, 'toolgate.yaml'), 'utf8'));

describe('defaults live once: config/toolgate.yaml and the code agree', () => {
  it('the shipped file is a valid settings file', () => {
    const parsed = platformFileSchema.safeParse(shipped);
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it('shows every default of the code with the same value, and nothing else', () => {
    expect(shipped).toEqual(FILE_DEFAULTS);
  });

  it('gives the same settings as no file at all', () => {
    const env = { TOOLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'toolgate-defaults-')) };
    const withFile = loadSettings({ ...env, TOOLGATE_CONFIG_DIR: CONFIG_DIR });
    const withoutFile = loadSettings({ ...env, TOOLGATE_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'tg-cfg-')) });
    const { tenancy: a, ...restWithFile } = withFile;
    const { tenancy: b, ...restWithoutFile } = withoutFile;
    expect(restWithFile).toEqual(restWithoutFile);
    expect({ ...a, configDir: '' }).toEqual({ ...b, configDir: '' });
  });
});
