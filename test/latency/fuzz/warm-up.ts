import type { TestGateway } from '@toolgate/testing';
import { findingsOf } from './fuzz-findings.js';
import { KeyRef, type FuzzRole, type FuzzWorld } from './fuzz-world.js';

/** One warm-up request and how long it took. */
export interface WarmUpTiming {
  readonly request: string;
  readonly status: number;
  readonly ms: number;
}

type Step = readonly [
  method: string,
  path: string,
  role: FuzzRole | null,
  body?: unknown,
  headers?: Record<string, string>,
];

/**
 * Sends one ordinary request to every route before the measured run, as a client would, and
 * returns how long each took. The first request of a route pays for lazy work (the OpenAPI
 * document is built on the first /docs request, schemas compile on first use, V8 compiles the
 * handlers): that is a cold start, reported on its own, not the steady state the /healthz bound is
 * about. The answers also give the fuzzer its first ids (a parked approval, call ids, events).
 */
export async function warmUp(gw: TestGateway, world: FuzzWorld): Promise<WarmUpTiming[]> {
  const invoke = (
    tool: string,
    input: unknown,
    agentType = 'ops_assistant',
    headers?: Record<string, string>,
  ): Step => ['POST', `/v1/agents/${agentType}/tools/${tool}/invoke`, 'agent', { input }, headers];
  const steps: Step[] = [
    ['GET', '/healthz', null],
    ['GET', '/readyz', null],
    ['GET', '/metrics', 'platform_admin'],
    ['GET', '/docs', null],
    ['GET', '/docs-json', null],
    ['GET', '/docs-yaml', null],
    ['GET', '/console/', null],
    ['GET', '/v1/me', 'agent'],
    ['GET', '/v1/agents', 'agent'],
    ...['jsonschema', 'openai', 'anthropic', 'mcp'].map((format): Step => [
      'GET',
      `/v1/agents/ops_assistant/tools?format=${format}`,
      'agent',
    ]),
    invoke('get_service_status', { service: 'payment-api' }),
    invoke('read_logs', { service: 'search-api', limit: 3 }),
    invoke('restart_service', { service: 'payment-api', reason: 'memory leak after the rollout' }),
    invoke('restart_service', { service: 'search-api', reason: 'memory leak after the rollout' }),
    invoke('query_supplier_delivery', { supplierId: 'V10023' }, 'contract_review'),
    invoke('get_service_status', { service: 'search-api' }, 'ops_assistant', { accept: 'text/event-stream' }),
    invoke('get_service_status', { service: 42 }),
    ['GET', '/v1/approvals?status=pending', 'approver'],
    ['GET', '/v1/admin/tools', 'platform_admin'],
    ['GET', '/v1/admin/tenants', 'platform_admin'],
    ['GET', '/v1/admin/tenants/acme', 'tenant_admin'],
    ['GET', '/v1/admin/tenants/acme/bindings', 'tenant_admin'],
    ['GET', '/v1/admin/tenants/globex/bindings', 'platform_admin'],
    ['GET', '/v1/admin/tenants/acme/bindings/history', 'tenant_admin'],
    ['GET', '/v1/admin/tenants/acme/export', 'tenant_admin'],
    ['GET', '/v1/admin/tenants/globex/export', 'platform_admin'],
    [
      'POST',
      '/v1/admin/tenants/acme/agents/ops_assistant/bindings/preview',
      'tenant_admin',
      { tools: ['get_service_status'] },
    ],
    ['GET', '/v1/admin/keys', 'platform_admin'],
    ['POST', '/v1/admin/keys', 'tenant_admin', { name: 'warm-up', role: 'agent', tenantId: 'acme' }],
    ['GET', '/v1/admin/stats', 'auditor'],
    ['GET', '/v1/audit/events?limit=20', 'auditor'],
    ['GET', '/v1/audit/incomplete', 'auditor'],
    ['GET', '/v1/audit/export?format=csv', 'auditor'],
    ['GET', '/v1/audit/export?format=jsonl', 'auditor'],
    ['GET', '/v1/audit/verify', 'auditor'],
    ['GET', '/v1/audit/checkpoints', 'auditor'],
    ['POST', '/v1/audit/checkpoints', 'auditor', {}],
    ['GET', '/v1/nothing-here', null],
    ['POST', '/v1/admin/keys', 'platform_admin', { name: 'x', role: 'root' }],
  ];
  const timings: WarmUpTiming[] = [];
  for (const [method, path, role, body, headers] of steps) {
    const started = performance.now();
    const res = await gw.api(method, path, {
      key: role ? (world.key(new KeyRef(role, 0)) ?? null) : null,
      body,
      headers,
    });
    timings.push({ request: `${method} ${path}`, status: res.status, ms: performance.now() - started });
    const type = res.headers.get('content-type') ?? '';
    world.apply(
      findingsOf(
        method,
        path.split('?')[0]!,
        type,
        Buffer.from(res.text),
        res.headers.get('x-call-id') ?? undefined,
      ),
    );
  }
  return timings;
}
