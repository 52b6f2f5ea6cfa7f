import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { EgressOptions } from '@toolgate/egress';
import { createGateway } from '../../apps/gateway/src/bootstrap.js';
import { loadSettings, type Settings } from '../../apps/gateway/src/settings/settings.js';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from './test-database.js';

/**
 * Test gateways talk to fakes on loopback, which the platform's egress policy refuses by default
 * (config/toolgate.yaml allows nothing): each allows 127.0.0.1 explicitly, on top of its file's
 * settings. A test of the policy itself passes its own `egress`.
 */
export const TEST_EGRESS_ALLOWED_CIDRS = ['127.0.0.1/32'];

/** The platform admin secret every test gateway starts with. */
export const TEST_ADMIN_KEY = 'tg_test-admin-key-0123456789abcdef';

/** An answer of the API under test. */
export interface ApiResponse<T = any> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
  readonly text: string;
}

/** What a test can send with one API call. */
export interface ApiOptions {
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** Calls the API at `baseUrl` with `key` (none when absent) and parses a JSON answer. */
export async function callApi<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  o: ApiOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  let body: string | undefined = o.rawBody;
  if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** A gateway listening on a real port, with its own fresh database. */
export interface TestGateway {
  readonly url: string;
  readonly app: NestFastifyApplication;
  readonly db: TestDatabase;
  readonly settings: Settings;
  /** Calls the API; `key` defaults to the admin key, `null` sends none. */
  api<T = any>(method: string, path: string, options?: ApiOptions): Promise<ApiResponse<T>>;
  /** Creates a key through the API and returns its secret. */
  createKey(role: string, tenantId?: string, extra?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** Starts a gateway on port 0 against a fresh database of `kind`, demo data on. */
export async function startTestGateway(
  options: {
    kind?: TestDatabaseKind;
    env?: Record<string, string>;
    imports?: NonNullable<DynamicModule['imports']>;
    db?: TestDatabase;
    /** A fixed port (e.g. one an IdP's redirect URL names); a free one by default. */
    port?: number;
    /** The egress policy instead of the file's plus TEST_EGRESS_ALLOWED_CIDRS (keys given replace the file's). */
    egress?: Partial<EgressOptions>;
  } = {},
): Promise<TestGateway> {
  const db = options.db ?? (await createTestDatabase(options.kind));
  const loaded = loadSettings({
    DATABASE_URL: db.url,
    TOOLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'toolgate-data-')),
    TOOLGATE_ADMIN_KEY: TEST_ADMIN_KEY,
    TOOLGATE_DEMO: 'on',
    TOOLGATE_LOCALE: 'en',
    PORT: '0',
    ...options.env,
  });
  const settings: Settings = {
    ...loaded,
    egress: options.egress
      ? { ...loaded.egress, ...options.egress }
      : { ...loaded.egress, allowCidrs: [...loaded.egress.allowCidrs, ...TEST_EGRESS_ALLOWED_CIDRS] },
  };
  const app = await createGateway(settings, { imports: options.imports, quiet: true });
  await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');

  const api: TestGateway['api'] = (method, path, o = {}) =>
    callApi(url, method, path, { ...o, key: o.key === undefined ? TEST_ADMIN_KEY : o.key });

  const separated = settings.compliance.profile === 'dengbao3';
  let security: Promise<string> | undefined;
  /** The security admin that hands out the tenants' keys under the profile, appointed once. */
  const securityAdminKey = () =>
    (security ??= callApi(url, 'POST', '/v1/admin/keys', {
      key: TEST_ADMIN_KEY,
      body: { name: 'security_admin for tests', role: 'security_admin', owner: 'test:security_admin' },
    }).then((res) => {
      if (res.status !== 201) throw new Error(`appointing a security_admin failed: ${res.text}`);
      return res.body.data.key as string;
    }));

  return {
    url,
    app,
    db,
    settings,
    api,
    async createKey(role, tenantId, extra = {}) {
      // Under the dengbao3 profile (ADR 039) the platform admin appoints the separated
      // administrators (each answered for by a person) and a security admin hands out the rest.
      const administrator = ['platform_admin', 'system_admin', 'security_admin', 'audit_admin'].includes(
        role,
      );
      const key = separated && !administrator ? await securityAdminKey() : TEST_ADMIN_KEY;
      const owner = separated && administrator && role !== 'platform_admin' ? { owner: `test:${role}` } : {};
      const res = await callApi(url, 'POST', '/v1/admin/keys', {
        key,
        body: { name: `${role} for tests`, role, tenantId, ...owner, ...extra },
      });
      if (res.status !== 201) throw new Error(`creating a ${role} key failed: ${res.text}`);
      return res.body.data.key as string;
    },
    async close() {
      await app.close();
      if (!options.db) await db.drop();
    },
  };
}
