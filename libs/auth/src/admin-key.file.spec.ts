import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keepNewAdminKey, readKeptAdminKey, replaceKeptAdminKey } from './admin-key.file.js';
import { generateKeySecret } from './key-format.js';

const fileIn = () => join(mkdtempSync(join(tmpdir(), 'toolgate-admin-key-')), 'data', 'admin-key');

describe('the kept platform admin key', () => {
  it('is written once, readable by its owner only, and read back as it was written', () => {
    const file = fileIn();
    expect(readKeptAdminKey(file)).toBeUndefined();
    const secret = generateKeySecret();
    expect(keepNewAdminKey(file, secret)).toBe(secret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readKeptAdminKey(file)).toBe(secret);
  });

  it('keeps the first key when a second gateway on the same data directory makes its own', () => {
    const file = fileIn();
    const first = generateKeySecret();
    keepNewAdminKey(file, first);
    expect(keepNewAdminKey(file, generateKeySecret())).toBe(first);
    expect(readKeptAdminKey(file)).toBe(first);
  });

  it('is replaced whole when the kept one was revoked', () => {
    const file = fileIn();
    keepNewAdminKey(file, generateKeySecret());
    const next = generateKeySecret();
    replaceKeptAdminKey(file, next);
    expect(readFileSync(file, 'utf8')).toBe(`${next}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('stops the boot, naming the file, when it holds something else', () => {
    const file = fileIn();
    keepNewAdminKey(file, generateKeySecret());
    writeFileSync(file, 'hunter2\n');
    expect(() => readKeptAdminKey(file)).toThrow(/admin-key does not hold a Toolgate key/);
  });
});
