import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import {
  createTestDatabase,
  makeConfigDir,
  startTestGateway,
  waitFor,
  type TestDatabase,
  type TestGateway,
} from '@toolgate/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

// Issue 22, ADR 029: a tenant file edited while the gateway runs is re-imported as a new version
// when nobody changed the tenant through the console or the API since the file's last import;
// otherwise, or when the file is invalid, the gateway says once why not and what to run, and the
// database keeps what the admin did. Bounded by the test's timeout only: the watcher reacts when
// the machine gets to it.
const untilTheTestTimesOut = { timeoutMs: Number.POSITIVE_INFINITY };

interface Binding {
  agentType: string;
  version: number;
  tools: unknown[];
  updatedBy: string;
}

describe('tenant files followed while the gateway runs', () => {
  let db: TestDatabase;
  let configDir: string;
  let acmeFile: string;
  let baseline: string;
  let gw: TestGateway | undefined;
  const warnings = vi.spyOn(Logger.prototype, 'warn');

  const boot = async () => {
    await gw?.close();
    gw = await startTestGateway({
      db,
      env: { TOOLGATE_CONFIG_DIR: configDir, TOOLGATE_WATCH_TENANT_FILES: 'on' },
    });
    return gw;
  };
  /** One agent type's bindings, its tools by name (saved entries are objects, file entries may be names). */
  const binding = async (agentType: string): Promise<Binding> => {
    const res = await gw!.api('GET', '/v1/admin/tenants/acme/bindings');
    const b = (res.body.data as Binding[]).find((row) => row.agentType === agentType)!;
    return { ...b, tools: b.tools.map((t) => (typeof t === 'string' ? t : (t as { name: string }).name)) };
  };
  /** acme.yaml with ops_assistant's tool list replaced. */
  const withOpsTools = (tools: string[]) =>
    baseline.replace(
      /( {4}tools:\n {6}- get_service_status\n {6}- read_logs\n {6}- restart_service\n)/,
      `    tools:\n${tools.map((t) => `      - ${t}\n`).join('')}`,
    );
  const warned = (text: string) =>
    warnings.mock.calls.filter(([message]) => typeof message === 'string' && message.includes(text));

  beforeAll(async () => {
    db = await createTestDatabase();
    configDir = makeConfigDir();
    acmeFile = join(configDir, 'tenants', 'acme.yaml');
    baseline = readFileSync(acmeFile, 'utf8');
    expect(withOpsTools(['get_service_status'])).not.toBe(baseline);
    await boot();
  });
  afterEach(() => warnings.mockClear());
  afterAll(async () => {
    await gw?.close();
    await db.drop();
    warnings.mockRestore();
  });

  it('re-imports a changed file as a new version, audited as binding_changed', async () => {
    expect(await binding('ops_assistant')).toMatchObject({ version: 1, updatedBy: 'config' });
    writeFileSync(acmeFile, withOpsTools(['get_service_status', 'read_logs']));
    const changed = await waitFor(async () => {
      const b = await binding('ops_assistant');
      return b.version === 2 && b;
    }, untilTheTestTimesOut);
    expect(changed).toMatchObject({ tools: ['get_service_status', 'read_logs'], updatedBy: 'config' });
    // The agent sees it at once: restart_service is no longer bound.
    const agent = await gw!.createKey('agent', 'acme');
    const tools = await gw!.api('GET', '/v1/agents/ops_assistant/tools', { key: agent });
    expect(tools.body.data.map((t: { name: string }) => t.name)).toEqual(['get_service_status', 'read_logs']);
    const events = await gw!.api('GET', '/v1/audit/events?tenantId=acme&limit=100');
    expect(events.body.data.items).toContainEqual(
      expect.objectContaining({
        event: 'binding_changed',
        agentType: 'ops_assistant',
        actor: { type: 'system', id: 'config' },
        details: expect.objectContaining({ kind: 'import', version: 2, previousVersion: 1 }),
      }),
    );
  });

  it('does not apply an invalid file, and says why, once', async () => {
    writeFileSync(acmeFile, withOpsTools(['get_service_status', 'no_such_tool']));
    const [[message]] = await waitFor(
      () => warned('no_such_tool').length > 0 && warned('no_such_tool'),
      untilTheTestTimesOut,
    );
    expect(message).toContain(`${acmeFile} was not applied, nothing changed`);
    expect(await binding('ops_assistant')).toMatchObject({ version: 2 });
  });

  it("keeps an admin's change and names what to run instead of applying the file", async () => {
    // The admin changes acme through the API: from now on the file may not overwrite it.
    const saved = await gw!.api('PUT', '/v1/admin/tenants/acme/agents/ops_assistant/bindings', {
      body: { version: 2, tools: ['get_service_status'] },
    });
    expect(saved.status, saved.text).toBe(200);
    writeFileSync(acmeFile, withOpsTools(['read_logs']));
    const [[message]] = await waitFor(
      () => warned('was changed through the console or the API').length > 0 && warned('was changed through'),
      untilTheTestTimesOut,
    );
    expect(message).toContain(`npm run tenant:import -- ${acmeFile}`);
    expect(await binding('ops_assistant')).toMatchObject({ version: 3, tools: ['get_service_status'] });

    // Saved again unchanged: said once. A later change of another file is handled after it.
    writeFileSync(acmeFile, withOpsTools(['read_logs']));
    const globexFile = join(configDir, 'tenants', 'globex.yaml');
    writeFileSync(
      globexFile,
      readFileSync(globexFile, 'utf8').replace(/^name: .*$/m, 'name: Globex renamed'),
    );
    await waitFor(async () => {
      const res = await gw!.api('GET', '/v1/admin/tenants/globex');
      return res.body.data.name === 'Globex renamed';
    }, untilTheTestTimesOut);
    expect(warned('was changed through the console or the API')).toHaveLength(1);
  });

  it('follows the file again once the file itself was imported on purpose', async () => {
    // What `npm run tenant:import -- config/tenants/acme.yaml` sends.
    const imported = await gw!.api('POST', '/v1/admin/tenants/acme/import', {
      body: { yaml: readFileSync(acmeFile, 'utf8') },
    });
    expect(imported.status, imported.text).toBe(200);
    expect(await binding('ops_assistant')).toMatchObject({ version: 4, tools: ['read_logs'] });
    writeFileSync(acmeFile, withOpsTools(['read_logs', 'restart_service']));
    await waitFor(async () => (await binding('ops_assistant')).version === 5, untilTheTestTimesOut);
    expect(await binding('ops_assistant')).toMatchObject({ tools: ['read_logs', 'restart_service'] });
  });

  it('takes a file changed while the gateway was stopped at the next boot, when nobody changed the tenant', async () => {
    await gw!.close();
    gw = undefined;
    writeFileSync(acmeFile, baseline);
    await boot();
    expect(await binding('ops_assistant')).toMatchObject({
      version: 6,
      tools: ['get_service_status', 'read_logs', 'restart_service'],
      updatedBy: 'config',
    });
  });
});

describe('tenant files with TOOLGATE_WATCH_TENANT_FILES off', () => {
  it('imports a file only when its tenant first appears, and says at boot what to run for a changed one', async () => {
    const db = await createTestDatabase();
    const configDir = makeConfigDir();
    const acmeFile = join(configDir, 'tenants', 'acme.yaml');
    const env = { TOOLGATE_CONFIG_DIR: configDir, TOOLGATE_WATCH_TENANT_FILES: 'off' };
    const said = vi.spyOn(Logger.prototype, 'log');
    try {
      await (await startTestGateway({ db, env })).close();
      writeFileSync(acmeFile, readFileSync(acmeFile, 'utf8').replace('      - restart_service\n', ''));
      const gw = await startTestGateway({ db, env });
      try {
        const res = await gw.api('GET', '/v1/admin/tenants/acme/bindings');
        expect(res.body.data.find((b: Binding) => b.agentType === 'ops_assistant')).toMatchObject({
          version: 1,
        });
        expect(said.mock.calls.map(([m]) => m)).toContainEqual(
          expect.stringContaining(`${acmeFile} differs from tenant acme in the database (ops_assistant)`),
        );
      } finally {
        await gw.close();
      }
    } finally {
      said.mockRestore();
      await db.drop();
    }
  });
});
