import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminKeyBootstrap, type AdminKeyOrigin } from '@toolgate/auth';
import {
  callApi,
  createTestDatabase,
  startTestGateway,
  TEST_ADMIN_KEY,
  type TestDatabase,
  type TestGateway,
} from '@toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The platform admin key generated when TOOLGATE_ADMIN_KEY is not set is kept in the data
// directory: a restart keeps a working key (scripts and open console tabs go on), and
// TOOLGATE_ADMIN_KEY, when set, is the key (issue 22).
describe('the generated platform admin key survives restarts', () => {
  let db: TestDatabase;
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-data-'));
  const keyFile = join(dataDir, 'admin-key');
  let running: TestGateway | undefined;

  /** Starts a gateway on the shared database and data directory; no TOOLGATE_ADMIN_KEY unless given. */
  const boot = async (adminKey = '') => {
    await running?.close();
    running = await startTestGateway({
      db,
      env: { TOOLGATE_DATA_DIR: dataDir, TOOLGATE_ADMIN_KEY: adminKey },
    });
    return { gw: running, origin: running.app.get(AdminKeyBootstrap).origin as AdminKeyOrigin };
  };
  const me = (gw: TestGateway, key: string) => callApi(gw.url, 'GET', '/v1/me', { key });

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await running?.close();
    await db.drop();
  });

  let first: string;

  it('is made at the first boot, shown once, and kept in the data directory (0600)', async () => {
    const { gw, origin } = await boot();
    expect(origin).toMatchObject({ source: 'created', file: keyFile });
    first = (origin as { secret: string }).secret;
    expect(readFileSync(keyFile, 'utf8').trim()).toBe(first);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect((await me(gw, first)).body.data).toMatchObject({ role: 'platform_admin' });
  });

  it('still works after a restart, which does not show it again', async () => {
    const { gw, origin } = await boot();
    expect(origin).toEqual({ source: 'file', file: keyFile });
    expect((await me(gw, first)).status).toBe(200);
  });

  it('gives way to TOOLGATE_ADMIN_KEY when that is set', async () => {
    const { gw, origin } = await boot(TEST_ADMIN_KEY);
    expect(origin).toEqual({ source: 'environment' });
    expect((await me(gw, TEST_ADMIN_KEY)).body.data).toMatchObject({ role: 'platform_admin' });
    // The kept file is left as it is for boots without the variable.
    expect(readFileSync(keyFile, 'utf8').trim()).toBe(first);
  });

  it('is replaced by a new one, shown once, when an admin revoked it', async () => {
    const { gw } = await boot(TEST_ADMIN_KEY);
    const keys = await gw.api('GET', '/v1/admin/keys');
    const kept = (keys.body.data as { id: string; prefix: string; revokedAt: string | null }[]).find(
      (k) => first.startsWith(k.prefix) && !k.revokedAt,
    );
    expect(kept).toBeDefined();
    expect((await gw.api('DELETE', `/v1/admin/keys/${kept!.id}`)).status).toBe(200);
    const after = await boot();
    expect(after.origin).toMatchObject({ source: 'created', file: keyFile });
    const next = (after.origin as { secret: string }).secret;
    expect(next).not.toBe(first);
    expect(readFileSync(keyFile, 'utf8').trim()).toBe(next);
    expect((await me(after.gw, first)).status).toBe(401);
    expect((await me(after.gw, next)).status).toBe(200);
  });
});
