import { describe, expect, it } from 'vitest';
import { parseTenantFile, TenantConfigError } from '@toolgate/tenancy';
import { TENANT_FILE_SECTIONS } from './tenant-file-sections.js';

const file = (secretEnv: string, id = 'acme') => `id: ${id}
name: ACME
notifications:
  channels: { hook: { type: webhook, url: 'https://hooks.example/x', secretEnv: ${secretEnv} } }
  routes: [{ channels: [hook] }]
`;

/** The problems a file is refused with; none when it is read. */
function problemsOf(text: string, id = 'acme'): readonly string[] {
  try {
    parseTenantFile(`tenants/${id}.yaml`, text, TENANT_FILE_SECTIONS);
    return [];
  } catch (err) {
    if (err instanceof TenantConfigError) return err.problems;
    throw err;
  }
}

describe('notifications in tenant files', () => {
  it("accepts secrets from the tenant's own TOOLGATE_NOTIFY_<TENANT>__ namespace", () => {
    expect(problemsOf(file('TOOLGATE_NOTIFY_ACME__HOOK_SECRET'))).toEqual([]);
  });

  it("refuses another tenant's variables (a tenant admin could send them to a host of its own)", () => {
    expect(problemsOf(file('TOOLGATE_NOTIFY_GLOBEX__HOOK_SECRET'))).toEqual([
      expect.stringMatching(
        /^tenants\/acme\.yaml: notifications\.channels\.hook\.secretEnv: .*TOOLGATE_NOTIFY_ACME__<NAME> \(line 4\)$/,
      ),
    ]);
    // `acme_x` is another tenant: its namespace is not inside acme's.
    expect(problemsOf(file('TOOLGATE_NOTIFY_ACME__X', 'acme_x'), 'acme_x')).toHaveLength(1);
  });
});
