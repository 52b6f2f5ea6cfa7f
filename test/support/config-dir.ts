import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * A config dir for a test: the repository's own `config/` (demo tenants included) plus extra
 * tenant files, so tests can bind tools the demo tenants do not have.
 */
export function makeConfigDir(extraTenants: Record<string, string> = {}, platformYaml?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-config-'));
  cpSync(resolve('config'), dir, { recursive: true });
  for (const [id, yaml] of Object.entries(extraTenants))
    writeFileSync(join(dir, 'tenants', `${id}.yaml`), yaml);
  // A toolgate.yaml of the test's own (e.g. short approval expiry) replaces the repository's.
  if (platformYaml !== undefined) writeFileSync(join(dir, 'toolgate.yaml'), platformYaml);
  return dir;
}
