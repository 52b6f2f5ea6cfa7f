import fc from 'fast-check';
import type { BodySpec, JsonLike } from './fuzz-bodies.js';
import type { Framing } from './fuzz-http.js';
import { hostileSegment, printableAscii } from './fuzz-text.js';
import { FUZZ_ROLES, KeyRef, PoolRef, VersionRef, type FuzzRole, type PoolName } from './fuzz-world.js';

/**
 * A path parameter with both its candidates: a valid value (a known one or an id seen earlier) and
 * a hostile one. A clean request takes the valid one; any other takes the one `hostile` names.
 */
export class ParamChoice {
  constructor(
    readonly valid: string | PoolRef,
    readonly hostileValue: string,
    readonly hostile: boolean,
  ) {}
  [fc.toStringMethod](): string {
    return this.hostile ? `hostile(${JSON.stringify(this.hostileValue)})` : fc.stringify(this.valid);
  }
}

/** A piece of a path or a query value: encoded text, an id the gateway handed out earlier, or a parameter. */
export type Part = string | PoolRef | ParamChoice;
/** A header value: a byte string, or parts with a key to resolve (`Bearer <agent key>`). */
export type HeaderValue = string | readonly (string | KeyRef)[];

/** One generated request, before ids and keys are resolved. Plain data: printable, replayable. */
export interface RequestSpec {
  /** The route it was generated for (`POST /v1/approvals/:approvalId/approve`), for statistics. */
  readonly route: string;
  readonly method: string;
  /** Segments after the leading slash; ignored when `target` is set. */
  readonly path: readonly Part[];
  /** A request target written as is: `*`, an absolute URL, a path with odd slashes. */
  readonly target?: string;
  /** Name/value pairs (values encoded), or a raw query string after `?`. */
  readonly query: readonly (readonly [string, Part])[] | string;
  readonly headers: readonly (readonly [string, HeaderValue])[];
  readonly body: BodySpec;
  /** `auto`: application/json when there is a body; `none`: no header; else that value. */
  readonly contentType: string;
  readonly framing: Framing;
  /** Every part of the request is valid for its route (path parameters take their valid value). */
  readonly clean: boolean;
}

export interface RouteDef {
  readonly method: string;
  /** `/v1/agents/:agentType/tools`: the name, and the template `path` fills. */
  readonly template: string;
  readonly path: fc.Arbitrary<Part[]>;
  readonly query?: Readonly<Record<string, fc.Arbitrary<Part>>>;
  readonly body?: fc.Arbitrary<JsonLike>;
  readonly bodySpec?: fc.Arbitrary<BodySpec>;
  /** The body of a clean request, when the route has one beyond `body` (invoke, import). */
  readonly cleanBody?: fc.Arbitrary<BodySpec>;
  /** Roles the route is for; an empty list means no key is needed. */
  readonly roles: readonly FuzzRole[];
  readonly weight: number;
  readonly invoke?: boolean;
}

export const TENANTS = ['acme', 'globex'];
export const AGENT_TYPES = ['ops_assistant', 'contract_review'];
export const TOOLS = [
  'get_service_status',
  'read_logs',
  'restart_service',
  'query_supplier_delivery',
] as const;
export type ToolName = (typeof TOOLS)[number];
export const ALL_ROLES = FUZZ_ROLES;
const ADMINS: readonly FuzzRole[] = ['platform_admin', 'tenant_admin'];
const DECIDERS: readonly FuzzRole[] = ['approver', 'tenant_admin', 'platform_admin'];
const AUDITORS: readonly FuzzRole[] = ['auditor', 'platform_admin'];

/** A path parameter: a known valid value or an id seen earlier, and (2 times in 11) something hostile. */
export function param(valid: readonly string[], pool?: PoolName): fc.Arbitrary<Part> {
  const options: fc.WeightedArbitrary<string | PoolRef>[] = [];
  if (valid.length) options.push({ weight: 5, arbitrary: fc.constantFrom(...valid) });
  if (pool) options.push({ weight: 4, arbitrary: fc.nat().map((i) => new PoolRef(pool, i)) });
  return fc
    .tuple(
      fc.oneof(...options),
      hostileSegment(),
      fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 2, arbitrary: fc.constant(true) }),
    )
    .map(([v, h, hostile]) => new ParamChoice(v, h, hostile));
}

export function path(...parts: (string | fc.Arbitrary<Part>)[]): fc.Arbitrary<Part[]> {
  return fc.tuple(...parts.map((p) => (typeof p === 'string' ? fc.constant<Part>(p) : p)));
}

const isoTimes = fc.constantFrom(
  '2026-01-01T00:00:00Z',
  '2026-12-01T08:00:00+08:00',
  '2099-01-01T00:00:00.000Z',
  '1970-01-01T00:00:00Z',
  '2026-02-30T00:00:00Z',
  'yesterday',
  '2026-01-01',
);
export const small = <T>(...values: T[]) => fc.constantFrom(...values);
const tenantValue = param(TENANTS, 'tenantId');
const auditFilters: Record<string, fc.Arbitrary<Part>> = {
  tenantId: tenantValue,
  tool: small('read_logs', 'restart_service', 'get_service_status', 'nope'),
  riskLevel: small('L0', 'L1', 'L2', 'L3', 'L9'),
  actorId: param([], 'keyId'),
  status: small('ok', 'error', 'pending'),
  code: small('INVALID_INPUT', 'APPROVAL_PENDING', 'UPSTREAM_ERROR'),
  event: small('started', 'finished', 'approval_requested', 'key_created', 'tenant_changed'),
  callId: param([], 'callId'),
  from: isoTimes,
  to: isoTimes,
};

const SERVICES = fc.constantFrom(
  'payment-api',
  'payment-api',
  'search-api',
  'unknown-svc',
  '',
  'a'.repeat(65),
  '__proto__',
  'constructor',
  'toString',
  '../etc',
  "' OR 1=1 --",
  '支付服务',
  '\u0000',
  '\ud800',
  // Not 'legacy-batch': it answers after 15 s by design (the timeout demo), which only costs time.
);
const sessionIds = fc.oneof(
  small('s-1', 'session:42', 'a'.repeat(128), 'a'.repeat(129), 'a b', '会话', ''),
  printableAscii(20),
);

const toolInputs: Record<ToolName, fc.Arbitrary<JsonLike>> = {
  get_service_status: fc.record({ service: SERVICES }),
  read_logs: fc.record(
    {
      service: SERVICES,
      window: small('5m', '1h', '24h', '1y'),
      level: small('error', 'warn', 'all', 'debug'),
      limit: small<JsonLike>(1, 3, 50, 500, 501, 0, -1, 2.5),
    },
    { requiredKeys: ['service'] },
  ),
  restart_service: fc.record({
    service: SERVICES,
    reason: small('memory leak after the rollout', '滚动发布后内存泄漏，需要重启', 'short', ''),
  }),
  query_supplier_delivery: fc.record(
    {
      supplierId: small('V10023', 'V10088', 'V1', 'v10023', '', 'V'.padEnd(80, '9')),
      from: small('2025-01-01', '2025-13-01', '2025-02-30'),
      to: small('2025-12-31', '2024-01-01', 'never'),
      status: small('open', 'delivered', 'late', 'all', 'lost'),
    },
    { requiredKeys: ['supplierId'] },
  ),
};

/** `{input, sessionId?}`: what a well-behaved agent sends (the input may still fail the tool's schema). */
export function validInvokeBody(tool: ToolName): fc.Arbitrary<JsonLike> {
  return fc.record(
    { input: toolInputs[tool], sessionId: small('s-1', 'session:42', 'fuzz.session') },
    { requiredKeys: ['input'] },
  );
}

export function invokeBody(tool: ToolName): fc.Arbitrary<JsonLike> {
  return fc.oneof(
    { weight: 6, arbitrary: validInvokeBody(tool) },
    // The platform mints call ids: a body naming one is refused (CONTRACT.md changelog v1.2).
    {
      weight: 1,
      arbitrary: fc.record(
        {
          input: toolInputs[tool],
          sessionId: sessionIds,
          callId: small<JsonLike>('00000000-0000-0000-0000-000000000000', new PoolRef('callId', 0)),
        },
        { requiredKeys: ['input'] },
      ),
    },
  );
}

/**
 * A binding's tool list: often a whole demo set (so the demo tools stay bound for the invokes that
 * follow), else any mix of valid, looser-than-declared and unknown entries.
 */
const bindingEntries = fc.oneof(
  {
    weight: 2,
    arbitrary: small<JsonLike>(
      ['get_service_status', 'read_logs', 'restart_service'],
      ['get_service_status', { name: 'read_logs', timeoutMs: 5_000, approval: 'once' }, 'restart_service'],
      [{ name: 'query_supplier_delivery', implementation: 'sap' }],
      [{ name: 'query_supplier_delivery', implementation: 'yonyou_nc' }],
    ),
  },
  { weight: 1, arbitrary: anyBindingEntries() },
);

function anyBindingEntries(): fc.Arbitrary<JsonLike> {
  return fc.subarray<JsonLike>([
    'get_service_status',
    'read_logs',
    { name: 'restart_service' },
    { name: 'read_logs', timeoutMs: 5_000, approval: 'once' },
    { name: 'query_supplier_delivery', implementation: 'sap' },
    { name: 'query_supplier_delivery', implementation: 'yonyou_nc' },
    { name: 'restart_service', approval: 'never' },
    { name: 'read_logs', timeoutMs: 60_000 },
    { name: 'get_service_status', timeoutMs: 0 },
    { name: 'no_such_tool' },
    'get_service_status',
  ]);
}
const bindingVersion = fc.oneof(
  { weight: 6, arbitrary: fc.constant<JsonLike>(new VersionRef(0)) },
  { weight: 1, arbitrary: fc.constantFrom<JsonLike>(new VersionRef(-1), new VersionRef(1), 0, 10_000) },
);

const keyBody = fc.record(
  {
    name: small('fuzz key', '', ' ', '密钥', 'k'.repeat(201)),
    role: small(...ALL_ROLES, 'root'),
    tenantId: fc.oneof(
      small<JsonLike>('acme', 'globex', 'nope', ''),
      fc.nat().map((i) => new PoolRef('tenantId', i)),
    ),
    agentTypes: small<JsonLike>(['ops_assistant'], ['contract_review'], [], ['x'.repeat(65)]),
  },
  { requiredKeys: ['name', 'role'] },
);

const importBody: fc.Arbitrary<BodySpec> = fc.oneof(
  { weight: 4, arbitrary: fc.nat().map((index): BodySpec => ({ kind: 'yaml', index })) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.nat(),
        fc.option(fc.nat(), { nil: undefined }),
        fc.option(
          small(
            '\n  bad: [',
            '\n  : :',
            '\n\t- x',
            '\nagentTypes: 7',
            '\nid: other',
            // Above the platform's tokensPerDay ceiling: refused when saved (CONTRACT.md "Limits").
            '\nquotas:\n  - tokensPerDay: 999999999999',
          ),
          {
            nil: undefined,
          },
        ),
      )
      .map(([index, cut, append]): BodySpec => ({ kind: 'yaml', index, cut, append })),
  },
  {
    weight: 1,
    arbitrary: small<JsonLike>(
      { yaml: '' },
      { yaml: 'a: &a [*a]' },
      { yaml: `${'- '.repeat(2_000)}x` },
      { yaml: 'id: acme\nname: x\nconnectors: !!js/function "x"' },
    ).map((value): BodySpec => ({ kind: 'json', value })),
  },
);

/**
 * Destinations the egress policy refuses (ADR 026; the fuzz gateway allows no private address):
 * loopback in its spellings, the metadata service, private, CGNAT, ULA and multicast ranges,
 * other schemes, and a name that resolves nowhere. No registration may succeed.
 */
export const REFUSED_DESTINATIONS = [
  'http://127.0.0.1:3000/mcp',
  'http://localhost/mcp',
  'http://LOCALHOST./mcp',
  'http://[::1]/mcp',
  'http://[::ffff:127.0.0.1]/mcp',
  'http://[::ffff:7f00:1]/mcp',
  'http://2130706433/mcp',
  'http://0x7f.1/mcp',
  'http://0/mcp',
  'http://169.254.169.254/latest/meta-data/',
  'http://[fd00::1]/mcp',
  'http://10.0.0.1:3306/',
  'http://172.16.0.1/',
  'http://192.168.1.1/',
  'http://100.64.0.1/',
  'http://224.0.0.1/',
  'https://user:pass@127.0.0.1/',
  'http://crm.example.invalid/mcp',
  'file:///etc/passwd',
  'gopher://127.0.0.1:6379/_INFO',
];

/** A registration of an upstream tool source at a refused destination, naming any secret. */
const upstreamBody = fc.record(
  {
    name: small('crm', 'fz_up', 'CRM', 'a'.repeat(33), ''),
    kind: small('mcp', 'openapi', 'grpc'),
    url: small(...REFUSED_DESTINATIONS),
    baseUrl: small(...REFUSED_DESTINATIONS),
    auth: fc.record({
      header: small('authorization', 'x-api-key', 'Host', 'bad header'),
      secretEnv: small(
        'TOOLGATE_UPSTREAM_ACME__CRM_TOKEN',
        'TOOLGATE_UPSTREAM_GLOBEX__CRM_TOKEN',
        'TOOLGATE_UPSTREAM_CRM_TOKEN',
        'TOOLGATE_T_ACME__OPS_TOKEN',
        'DATABASE_URL',
        'TOOLGATE_ADMIN_KEY',
      ),
    }),
    timeoutMs: small(1_000, 0, 30_001),
  },
  { requiredKeys: ['name', 'url'] },
);

/** Every route the gateway serves, the routes CONTRACT.md names, and paths nobody serves. */
export const ROUTES: readonly RouteDef[] = [
  { method: 'GET', template: '/healthz', path: path('healthz'), roles: [], weight: 1 },
  { method: 'GET', template: '/readyz', path: path('readyz'), roles: [], weight: 1 },
  { method: 'GET', template: '/metrics', path: path('metrics'), roles: ['platform_admin'], weight: 1 },
  {
    method: 'GET',
    template: '/docs/*',
    path: fc.oneof(
      path('docs'),
      path('docs-json'),
      path('docs-yaml'),
      path('docs', small('', 'index.html', 'swagger-ui.css', 'swagger-ui-init.js', 'LICENSE', 'nope.js')),
      path('docs', hostileSegment()),
      path('docs', hostileSegment(), hostileSegment()),
    ),
    roles: [],
    weight: 1,
  },
  {
    method: 'GET',
    template: '/console/*',
    path: fc.oneof(
      path('console'),
      path('console', small('', 'index.html', 'audit', 'bindings/acme', 'assets/app.js', 'assets/nope.js')),
      path('console', hostileSegment()),
      path('console', 'assets', hostileSegment()),
      path('console', hostileSegment(), hostileSegment(), hostileSegment()),
    ),
    roles: [],
    weight: 1,
  },
  { method: 'GET', template: '/v1/me', path: path('v1', 'me'), roles: ALL_ROLES, weight: 1 },
  { method: 'GET', template: '/v1/agents', path: path('v1', 'agents'), roles: ['agent'], weight: 1 },
  {
    method: 'GET',
    template: '/v1/agents/:agentType/tools',
    path: path('v1', 'agents', param(AGENT_TYPES, 'agentType'), 'tools'),
    query: {
      format: small('jsonschema', 'openai', 'anthropic', 'mcp', 'xml'),
      include: small('deferred', 'all'),
    },
    roles: ['agent'],
    weight: 2,
  },
  {
    method: 'GET',
    template: '/v1/calls/:callId',
    path: path('v1', 'calls', param([], 'callId')),
    roles: ALL_ROLES,
    weight: 2,
  },
  {
    method: 'GET',
    template: '/v1/approvals',
    path: path('v1', 'approvals'),
    query: {
      status: small('pending', 'approved', 'denied', 'expired', 'all'),
      limit: small('1', '50', '500', '0', '501', '1e3'),
    },
    roles: DECIDERS,
    weight: 2,
  },
  {
    method: 'GET',
    template: '/v1/approvals/:approvalId',
    path: path('v1', 'approvals', param([], 'approvalId')),
    roles: DECIDERS,
    weight: 1,
  },
  {
    method: 'POST',
    template: '/v1/approvals/:approvalId/approve',
    path: path('v1', 'approvals', param([], 'approvalId'), 'approve'),
    body: fc.record(
      { comment: small('ok', '同意，低峰期执行', '', 'c'.repeat(1_001)) },
      { requiredKeys: [] },
    ),
    roles: DECIDERS,
    weight: 2,
  },
  {
    method: 'POST',
    template: '/v1/approvals/:approvalId/deny',
    path: path('v1', 'approvals', param([], 'approvalId'), 'deny'),
    body: fc.record({ comment: small('not now', '   ', '\u3000', '', 'c'.repeat(1_001)) }),
    roles: DECIDERS,
    weight: 2,
  },
  {
    method: 'GET',
    template: '/v1/admin/tools',
    path: path('v1', 'admin', 'tools'),
    roles: ADMINS,
    weight: 1,
  },
  {
    method: 'GET',
    template: '/v1/admin/tenants',
    path: path('v1', 'admin', 'tenants'),
    roles: ADMINS,
    weight: 1,
  },
  {
    method: 'POST',
    template: '/v1/admin/tenants',
    path: path('v1', 'admin', 'tenants'),
    body: fc.record(
      {
        id: fc.oneof(fc.stringMatching(/^fz[a-z0-9]{1,8}$/), small('acme', 'a--b', 'A', 'x'.repeat(65), '')),
        name: small('Fuzz Co', '', '测试租户', 'n'.repeat(201)),
        locale: small('en', 'zh-CN', 'fr'),
      },
      { requiredKeys: ['id', 'name'] },
    ),
    roles: ['platform_admin'],
    weight: 1,
  },
  {
    method: 'GET',
    template: '/v1/admin/tenants/:tenantId',
    path: path('v1', 'admin', 'tenants', tenantValue),
    roles: ADMINS,
    weight: 1,
  },
  {
    method: 'GET',
    template: '/v1/admin/tenants/:tenantId/bindings',
    path: path('v1', 'admin', 'tenants', tenantValue, 'bindings'),
    roles: ADMINS,
    weight: 2,
  },
  {
    method: 'GET',
    template: '/v1/admin/tenants/:tenantId/processing-records',
    path: path('v1', 'admin', 'tenants', tenantValue, 'processing-records'),
    roles: [...ADMINS, 'auditor'],
    weight: 1,
  },
  {
    method: 'PUT',
    template: '/v1/admin/tenants/:tenantId/agents/:agentType/bindings',
    path: path('v1', 'admin', 'tenants', tenantValue, 'agents', param(AGENT_TYPES, 'agentType'), 'bindings'),
    body: fc.record(
      { version: bindingVersion, tools: bindingEntries, description: small('fuzzed', 'd'.repeat(501)) },
      { requiredKeys: ['version', 'tools'] },
    ),
    roles: ADMINS,
    weight: 2,
  },
  {
    method: 'POST',
    template: '/v1/admin/tenants/:tenantId/agents/:agentType/bindings/preview',
    path: path(
      'v1',
      'admin',
      'tenants',
      tenantValue,
      'agents',
      param(AGENT_TYPES, 'agentType'),
      'bindings',
      'preview',
    ),
    body: fc.record({ tools: bindingEntries }),
    roles: ADMINS,
    weight: 1,
  },
  {
    method: 'GET',
    template: '/v1/admin/tenants/:tenantId/bindings/history',
    path: path('v1', 'admin', 'tenants', tenantValue, 'bindings', 'history'),
    query: { agentType: param(AGENT_TYPES, 'agentType') },
    roles: ADMINS,
    weight: 1,
  },
  {
    method: 'GET',
    template: '/v1/admin/tenants/:tenantId/export',
    path: path('v1', 'admin', 'tenants', tenantValue, 'export'),
    roles: ADMINS,
    weight: 1,
  },
  {
    method: 'POST',
    template: '/v1/admin/tenants/:tenantId/import',
    path: path('v1', 'admin', 'tenants', tenantValue, 'import'),
    bodySpec: importBody,
    cleanBody: fc.nat().map((index): BodySpec => ({ kind: 'yaml', index })),
    roles: ADMINS,
    weight: 1,
  },
  {
    method: 'POST',
    template: '/v1/admin/tenants/:tenantId/upstreams',
    path: path('v1', 'admin', 'tenants', tenantValue, 'upstreams'),
    body: upstreamBody,
    roles: ADMINS,
    weight: 2,
  },
  { method: 'GET', template: '/v1/admin/keys', path: path('v1', 'admin', 'keys'), roles: ADMINS, weight: 1 },
  {
    method: 'POST',
    template: '/v1/admin/keys',
    path: path('v1', 'admin', 'keys'),
    body: keyBody,
    roles: ADMINS,
    weight: 2,
  },
  {
    method: 'DELETE',
    template: '/v1/admin/keys/:keyId',
    path: path('v1', 'admin', 'keys', param([], 'keyId')),
    roles: ADMINS,
    weight: 1,
  },
  {
    method: 'GET',
    template: '/v1/admin/stats',
    path: path('v1', 'admin', 'stats'),
    query: { from: isoTimes, to: isoTimes, bucketMinutes: small('5', '1', '1440', '0', '1441', '1.5', '-5') },
    roles: ['platform_admin', 'tenant_admin', 'auditor'],
    weight: 1,
  },
  {
    method: 'GET',
    template: '/v1/audit/events',
    path: path('v1', 'audit', 'events'),
    query: {
      ...auditFilters,
      cursor: param(['ZTox', 'e:1', '!!!'], 'cursor'),
      limit: small('1', '50', '500', '0', '501', 'x'),
    },
    roles: AUDITORS,
    weight: 2,
  },
  {
    method: 'GET',
    template: '/v1/audit/events/:id',
    path: path('v1', 'audit', 'events', param(['1', '0', '-1', '99999999999999999999'], 'eventId')),
    roles: AUDITORS,
    weight: 1,
  },
  {
    method: 'GET',
    template: '/v1/audit/calls/:callId',
    path: path('v1', 'audit', 'calls', param([], 'callId')),
    roles: AUDITORS,
    weight: 1,
  },
  {
    method: 'GET',
    template: '/v1/audit/incomplete',
    path: path('v1', 'audit', 'incomplete'),
    roles: AUDITORS,
    weight: 1,
  },
  {
    method: 'GET',
    template: '/v1/audit/export',
    path: path('v1', 'audit', 'export'),
    query: { ...auditFilters, format: small('csv', 'jsonl', 'xlsx') },
    roles: AUDITORS,
    weight: 2,
  },
  {
    method: 'GET',
    template: '/v1/audit/verify',
    path: path('v1', 'audit', 'verify'),
    query: { tenantId: tenantValue, from: isoTimes, to: isoTimes },
    roles: AUDITORS,
    weight: 1,
  },
  {
    method: 'GET',
    template: '/v1/audit/checkpoints',
    path: path('v1', 'audit', 'checkpoints'),
    query: { tenantId: tenantValue },
    roles: AUDITORS,
    weight: 1,
  },
  {
    method: 'POST',
    template: '/v1/audit/checkpoints',
    path: path('v1', 'audit', 'checkpoints'),
    body: fc.record(
      {
        tenantId: fc.oneof(
          small<JsonLike>('acme', 'globex', 'nope', 7),
          fc.nat().map((i) => new PoolRef('tenantId', i)),
        ),
      },
      { requiredKeys: [] },
    ),
    roles: AUDITORS,
    weight: 1,
  },
  // CONTRACT.md names these (runs, sessions, MCP); this branch serves none of them yet.
  {
    method: 'POST',
    template: '/v1/agents/:agentType/runs',
    path: path('v1', 'agents', param(AGENT_TYPES, 'agentType'), 'runs'),
    body: fc.record(
      { input: small('restart payment-api', ''), sessionId: sessionIds },
      { requiredKeys: ['input'] },
    ),
    roles: ['agent'],
    weight: 1,
  },
  {
    method: 'GET',
    template: '/v1/runs/:runId[/events|/cancel]',
    path: fc.oneof(
      path('v1', 'runs', hostileSegment()),
      path('v1', 'runs', hostileSegment(), small('events', 'cancel')),
      path('v1', 'sessions', hostileSegment(), 'runs'),
    ),
    roles: ['agent'],
    weight: 1,
  },
  {
    method: 'POST',
    template: '/mcp/:agentType',
    path: path('mcp', param(AGENT_TYPES, 'agentType')),
    body: small<JsonLike>(
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'get_service_status', arguments: { service: 'payment-api' } },
      },
      // A task parked on approval (counted against the call quotas; nothing runs).
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: {
          name: 'restart_service',
          arguments: { service: 'payment-api', reason: 'fuzz: a task parked on approval' },
          task: {},
        },
      },
      // A task nobody has: answered at once (a real one would be waited for, up to 50 s).
      {
        jsonrpc: '2.0',
        id: 4,
        method: 'tasks/result',
        params: { taskId: '0193a5b2-0000-7000-8000-000000000000' },
      },
    ),
    roles: ['agent'],
    weight: 1,
  },
];

/** The invoke route, with bodies shaped for the tool its path names. */
export const INVOKE: RouteDef = {
  method: 'POST',
  template: '/v1/agents/:agentType/tools/:toolName/invoke',
  path: path(
    'v1',
    'agents',
    param(AGENT_TYPES, 'agentType'),
    'tools',
    param([...TOOLS], 'toolName'),
    'invoke',
  ),
  query: { view: small('full', 'model', 'raw') },
  roles: ['agent'],
  weight: 10,
  invoke: true,
};

/** Paths nobody serves, written as they would arrive. */
export const UNKNOWN_PATHS = fc.oneof(
  fc
    .array(fc.oneof(fc.stringMatching(/^[a-z]{1,8}$/), hostileSegment()), { minLength: 1, maxLength: 5 })
    .map((segments) => ({ path: segments as Part[] })),
  fc
    .array(fc.oneof(fc.stringMatching(/^[a-z]{1,8}$/), hostileSegment()), { minLength: 1, maxLength: 3 })
    .map((segments) => ({ path: ['v1', ...segments] as Part[] })),
  small(
    '/',
    '/v1',
    '/v1/',
    '//v1/agents',
    '/v1/agents/',
    '/V1/AGENTS',
    '/v1/agents;x=1',
    '/v1/./agents',
    '/v1//agents',
    '/v2/agents',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/console/../package.json',
    '/console/%2e%2e/%2e%2e/package.json',
    '/console/..%2fsentinel.txt',
    '/console/%2e%2e/sentinel.txt',
    '/console/assets/..%2f..%2fsentinel.txt',
    '/console/../sentinel.txt',
    '/docs/../../package.json',
    '/docs/%2e%2e%2f%2e%2e%2fpackage.json',
    '/.env',
    '/.git/config',
    '/package.json',
    '*',
    'http://evil.example/v1/agents',
    '/v1/agents?x=1?y=2',
    `/${'a/'.repeat(2_000)}`,
  ).map((target) => ({ path: [] as Part[], target })),
);
