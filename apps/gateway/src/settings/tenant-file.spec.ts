import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  loadTenantFiles as loadFiles,
  parseTenantFile,
  TenantConfigError,
  type TenantFileCeilings,
} from '@toolgate/tenancy';
import { TENANT_FILE_SECTIONS } from './tenant-file-sections.js';

// Tenant files as the gateway composes them: the tenancy lib's own fields and the libs' sections.
const parse = (file: string, text: string, ceilings?: TenantFileCeilings) =>
  parseTenantFile(file, text, TENANT_FILE_SECTIONS, ceilings);
const loadTenantFiles = (dir: string) => loadFiles(dir, TENANT_FILE_SECTIONS);

const VALID = `id: acme
name: ACME
connectors:
  ops_api: { baseUrl: 'https://ops.acme', token: '\${TOOLGATE_T_ACME__OPS_TOKEN}' }
agentTypes:
  ops_assistant:
    description: Ops
    tools:
      - read_logs
      - { name: restart_service, timeoutMs: 20000 }
quotas:
  - { perMinute: 30 }
`;

/** The problems a tenant file's text is refused with. */
function problemsOf(text: string, file = 'tenants/acme.yaml'): readonly string[] {
  try {
    parse(file, text);
  } catch (err) {
    if (err instanceof TenantConfigError) return err.problems;
    throw err;
  }
  throw new Error('expected the file to be refused');
}

describe('a tenant file', () => {
  it('reads a valid file: bare tool names become entries, defaults are filled in', () => {
    const { tenant, lineOf } = parse('tenants/acme.yaml', VALID);
    expect(tenant.demo).toBe(false);
    expect(tenant.agentTypes.ops_assistant!.tools).toEqual([
      { name: 'read_logs' },
      { name: 'restart_service', timeoutMs: 20_000 },
    ]);
    expect(tenant.quotas).toEqual([{ scope: 'tenant', tool: '*', perMinute: 30 }]);
    // Placeholders are kept as written: secrets stay in the environment.
    expect(tenant.connectors.ops_api!.token).toBe('${TOOLGATE_T_ACME__OPS_TOKEN}');
    expect(lineOf(['agentTypes', 'ops_assistant', 'tools', 1])).toBe(10);
  });

  it("refuses tokens per day above the platform's ceiling, naming the path, the line and the setting", () => {
    const ceilings = { maxTokensPerDay: 100_000 };
    const asking = (n: number | null) =>
      VALID.replace('  - { perMinute: 30 }', `  - { perMinute: 30 }\n  - { tokensPerDay: ${n} }`);
    let problems: readonly string[] = [];
    try {
      parse('tenants/acme.yaml', asking(100_001), ceilings);
    } catch (err) {
      problems = (err as TenantConfigError).problems;
    }
    expect(problems).toEqual([
      expect.stringMatching(
        /^tenants\/acme\.yaml: quotas\[1\]\.tokensPerDay: 100001 is above the platform's ceiling of 100000 .*quotas\.maxTokensPerDay.*\(line 13\)$/,
      ),
    ]);
    // At the ceiling, below it, and "no cap of its own" (held to the ceiling at use) are accepted.
    for (const n of [100_000, 5, null])
      expect(parse('tenants/acme.yaml', asking(n), ceilings).tenant.quotas).toHaveLength(2);
    // Without a ceiling anything positive goes.
    expect(parse('tenants/acme.yaml', asking(10 ** 12)).tenant.quotas).toHaveLength(2);
  });

  it("reads the tenant's tokens per day beside its call quotas, and refuses a token quota with call fields", () => {
    const withBudget = VALID.replace(
      '  - { perMinute: 30 }',
      '  - { perMinute: 30 }\n  - { tokensPerDay: 200000 }',
    );
    expect(parse('tenants/acme.yaml', withBudget).tenant.quotas).toEqual([
      { scope: 'tenant', tool: '*', perMinute: 30 },
      { tokensPerDay: 200_000 },
    ]);
    const unlimited = VALID.replace('  - { perMinute: 30 }', '  - { tokensPerDay: null }');
    expect(parse('tenants/acme.yaml', unlimited).tenant.quotas).toEqual([{ tokensPerDay: null }]);
    expect(problemsOf(VALID.replace('{ perMinute: 30 }', '{ tokensPerDay: 0 }'))).toEqual([
      expect.stringMatching(/quotas\[0\]\.tokensPerDay: .*\(line 12\)$/),
    ]);
    expect(problemsOf(VALID.replace('{ perMinute: 30 }', '{ tokensPerDay: 5, tool: x }'))).toEqual([
      expect.stringMatching(/quotas\[0\].*tool/),
    ]);
  });

  it('names the file, the path and the line of a value the schema refuses', () => {
    const text = VALID.replace('timeoutMs: 20000', 'timeoutMs: -5');
    expect(problemsOf(text)).toEqual([
      expect.stringMatching(
        /^tenants\/acme\.yaml: agentTypes\.ops_assistant\.tools\[1\]\.timeoutMs: .* \(line 10\)$/,
      ),
    ]);
  });

  it('refuses unknown fields and bad identifiers, every problem in one error', () => {
    const problems = problemsOf(
      VALID.replace('id: acme', 'id: ACME--corp').replace('name: ACME', 'name: ACME\nowner: me'),
    );
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^tenants\/acme\.yaml: id: use lower-case letters .* \(line 1\)$/);
    expect(problems[1]).toMatch(/^tenants\/acme\.yaml: \(root\): .*owner/);
  });

  it('reports a YAML syntax error with the file name', () => {
    expect(problemsOf('id: acme\nname: [unclosed\n')).toEqual([
      expect.stringMatching(/^tenants\/acme\.yaml: /),
    ]);
  });

  it('names a malformed agent type by its path and line', () => {
    // Zod reports a bad record key as "Invalid key in record": the snake_case rule is not spelt out.
    const problems = problemsOf(VALID.replace('ops_assistant:', 'Ops-Assistant:'));
    expect(problems).toEqual(['tenants/acme.yaml: agentTypes.Ops-Assistant: Invalid key in record (line 7)']);
  });
});

describe('loadTenantFiles', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolgate-tenants-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads every YAML file of a folder in name order and ignores other files', () => {
    writeFileSync(join(dir, 'globex.yml'), 'id: globex\nname: Globex\n');
    writeFileSync(join(dir, 'acme.yaml'), VALID);
    writeFileSync(join(dir, 'notes.txt'), 'not a tenant');
    expect(loadTenantFiles(dir).map((f) => f.tenant.id)).toEqual(['acme', 'globex']);
  });

  it('answers no tenants for a folder that does not exist', () => {
    expect(loadTenantFiles(join(dir, 'missing'))).toEqual([]);
  });

  it('reports the problems of all files together: ids that do not match their file, or repeat', () => {
    writeFileSync(join(dir, 'acme.yaml'), VALID);
    writeFileSync(join(dir, 'acme.yml'), 'id: acme\nname: ACME again\n');
    writeFileSync(join(dir, 'globex.yaml'), 'id: initech\nname: Initech\n');
    writeFileSync(join(dir, 'broken.yaml'), 'id: broken\n');
    let problems: readonly string[] = [];
    try {
      loadTenantFiles(dir);
    } catch (err) {
      problems = (err as TenantConfigError).problems;
    }
    expect(problems).toEqual([
      `${join(dir, 'acme.yml')}: tenant "acme" is also defined in ${join(dir, 'acme.yaml')}`,
      expect.stringMatching(/broken\.yaml: name: /),
      `${join(dir, 'globex.yaml')}: id "initech" must match the file name "globex"`,
    ]);
  });
});
