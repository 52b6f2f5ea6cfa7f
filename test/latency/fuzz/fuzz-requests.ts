import fc from 'fast-check';
import { bodyFor, type BodySpec } from './fuzz-bodies.js';
import type { Framing } from './fuzz-http.js';
import {
  AGENT_TYPES,
  ALL_ROLES,
  INVOKE,
  invokeBody,
  param,
  ParamChoice,
  path,
  ROUTES,
  small,
  TOOLS,
  UNKNOWN_PATHS,
  validInvokeBody,
  type HeaderValue,
  type Part,
  type RequestSpec,
  type RouteDef,
} from './fuzz-routes.js';
import { asBytes, hostileSegment, printableAscii, UNICODE_SAMPLES } from './fuzz-text.js';
import { KeyRef, type FuzzRole } from './fuzz-world.js';

/*
 * How a request to a route is generated, dimension by dimension (method, key, headers, query,
 * body, content type, framing): clean requests take the right value of each, the others draw from
 * valid and hostile values alike.
 */

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'];
const method = (right: string) =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constant(right) },
    { weight: 2, arbitrary: fc.constantFrom(...METHODS) },
    { weight: 1, arbitrary: small('TRACE', 'PROPFIND', 'SEARCH', 'get', 'BREW') },
  );

const auth = (roles: readonly FuzzRole[]): fc.Arbitrary<HeaderValue | undefined> => {
  const keyOf = (rs: readonly FuzzRole[]) =>
    fc.tuple(fc.constantFrom(...rs), fc.nat()).map(([role, i]) => new KeyRef(role, i));
  const bearer = (rs: readonly FuzzRole[]) => keyOf(rs).map((k): HeaderValue => ['Bearer ', k]);
  return fc.oneof(
    { weight: roles.length ? 10 : 1, arbitrary: bearer(roles.length ? roles : ALL_ROLES) },
    { weight: 3, arbitrary: bearer(ALL_ROLES) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...(roles.length ? roles : ALL_ROLES)), fc.nat())
        .map(([role, i]): HeaderValue => ['Bearer ', new KeyRef(role, i, true)]),
    },
    { weight: 2, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        small<HeaderValue>(
          'Bearer',
          'Bearer tg_nope',
          'Basic YWRtaW46YWRtaW4=',
          'tg_test',
          `Bearer ${'a'.repeat(10_000)}`,
          'Bearer  ',
          'Bearer tg_\u00e9',
        ),
        keyOf(ALL_ROLES).map((k): HeaderValue => ['bearer ', k]),
        keyOf(ALL_ROLES).map((k): HeaderValue => ['BEARER ', k, ' extra']),
        keyOf(ALL_ROLES).map((k): HeaderValue => [k]),
        printableAscii(40).map((s): HeaderValue => `Bearer ${s}`),
      ),
    },
  );
};

/** Mostly the first keys of a role (the suite's own, never revoked), sometimes any key made since. */
const keyIndex = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(0, 1) },
  { weight: 1, arbitrary: fc.nat() },
);

/** The headers of a clean request: the right role's key and what a well-behaved client sends. */
const cleanHeaders = (roles: readonly FuzzRole[], isInvoke: boolean) =>
  fc
    .record({
      authorization: roles.length
        ? fc
            .tuple(fc.constantFrom(...roles), keyIndex)
            .map(([role, i]): HeaderValue | undefined => ['Bearer ', new KeyRef(role, i)])
        : fc.constant<HeaderValue | undefined>(undefined),
      'accept-language': optional(1, small('en', 'zh-CN', 'en-US,en;q=0.9')),
      'idempotency-key': isInvoke
        ? optional(2, fc.constantFrom(...IDEMPOTENCY_KEYS_FOR_CLEAN))
        : fc.constant(undefined),
      accept: isInvoke ? optional(3, fc.constant('text/event-stream')) : fc.constant(undefined),
      'x-request-id': optional(3, small('trace-1', 'req:42.a_b')),
    })
    .map((named) => {
      const list: (readonly [string, HeaderValue])[] = [];
      for (const [name, value] of Object.entries(named)) if (value !== undefined) list.push([name, value]);
      return list;
    });

const IDEMPOTENCY_KEYS_FOR_CLEAN = ['clean-1', 'clean-2', 'clean-3'];

const IDEMPOTENCY_KEYS = ['fuzz-key-1', 'fuzz-key-2', 'fuzz-key-3', 'Fuzz-Key-1', 'fuzz:key.4', 'k'];
const idempotencyKey = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.constantFrom(...IDEMPOTENCY_KEYS) },
  {
    weight: 2,
    arbitrary: fc.oneof(
      small(
        'k'.repeat(200),
        'k'.repeat(201),
        'k'.repeat(300),
        asBytes('schlüssel'),
        asBytes('幂等键'),
        'a,b',
        '*',
      ),
      fc.constantFrom(...UNICODE_SAMPLES.filter((s) => !s.includes('\u0000'))).map(asBytes),
      printableAscii(40),
    ),
  },
);

const optional = (weightAbsent: number, present: fc.Arbitrary<string>) =>
  fc.oneof({ weight: weightAbsent, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: present });

/** Headers a client should not send, or sends twice; rare, so the rest of a request still counts. */
const extraHeaders = fc.oneof(
  { weight: 8, arbitrary: fc.constant<(readonly [string, string])[]>([]) },
  {
    weight: 1,
    arbitrary: fc.subarray<readonly [string, string]>(
      [
        ['x-forwarded-for', '1.2.3.4, evil'],
        ['content-encoding', 'gzip'],
        ['cookie', 'session=abc'],
        ['origin', 'http://evil.example'],
        ['x-http-method-override', 'DELETE'],
        ['x-pad', 'a'.repeat(10_000)],
        ['x-pad', 'a'.repeat(20_000)],
        ['authorization', 'Bearer tg_second'],
        ['idempotency-key', 'second-key'],
      ],
      { minLength: 1, maxLength: 2 },
    ),
  },
);

const headers = (roles: readonly FuzzRole[], isInvoke: boolean) =>
  fc
    .tuple(
      fc.record({
        authorization: auth(roles),
        'accept-language': optional(
          1,
          fc.oneof(
            small('en', 'zh-CN', 'en-US,en;q=0.9', 'fr', '*', 'en;q=abc', ';;;', `xx-${'a'.repeat(1_000)}`),
            printableAscii(30),
          ),
        ),
        'idempotency-key': isInvoke
          ? idempotencyKey
          : optional(
              12,
              idempotencyKey.map((k) => k ?? 'k'),
            ),
        accept: optional(
          isInvoke ? 2 : 8,
          small(
            'text/event-stream',
            'text/event-stream',
            'application/json',
            '*/*',
            'text/html',
            'text/event-stream;q=0',
          ),
        ),
        'x-request-id': optional(
          3,
          fc.oneof(
            small(
              'trace-42:a.b_c',
              'a'.repeat(128),
              'a'.repeat(129),
              '<script>alert(1)</script>',
              asBytes('é'),
              'a b',
              '../../etc',
              'x'.repeat(6_000),
              '%00',
            ),
            printableAscii(140),
          ),
        ),
      }),
      extraHeaders,
    )
    .map(([named, extra]) => {
      const list: (readonly [string, HeaderValue])[] = [];
      for (const [name, value] of Object.entries(named)) if (value !== undefined) list.push([name, value]);
      return [...list, ...extra];
    });

const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant('auto') },
  {
    weight: 2,
    arbitrary: fc.oneof(
      small(
        'none',
        'application/json; charset=utf-8',
        'APPLICATION/JSON',
        'application/json;charset=latin1',
        'text/plain',
        'text/plain; charset=utf-8',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/vnd.api+json',
        'application/jsonx',
        'application/json, text/plain',
        'application/octet-stream',
      ),
      printableAscii(30),
    ),
  },
);

const framing = fc.oneof(
  { weight: 40, arbitrary: fc.constant<Framing>('honest') },
  {
    weight: 2,
    arbitrary: small<Framing>(
      'length-longer',
      'length-shorter',
      'length-and-chunked',
      'chunked-garbage',
      'chunked',
      'expect-continue',
    ),
  },
);

/** No query, or some of the route's parameters once each, with the values it knows. */
function cleanQuery(
  known: Readonly<Record<string, fc.Arbitrary<Part>>> | undefined,
): fc.Arbitrary<readonly (readonly [string, Part])[]> {
  const names = Object.keys(known ?? {});
  if (!names.length) return fc.constant([]);
  const some = fc
    .subarray(names, { minLength: 1 })
    .chain((picked) => fc.tuple(...picked.map((name) => known![name]!.map((v) => [name, v] as const))));
  return fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 2, arbitrary: some });
}

function query(known: Readonly<Record<string, fc.Arbitrary<Part>>> | undefined) {
  const names = Object.keys(known ?? {});
  const pair: fc.Arbitrary<readonly [string, Part]> = fc.oneof(
    ...(names.length
      ? [
          {
            weight: 6,
            arbitrary: fc
              .constantFrom(...names)
              .chain((name) =>
                fc
                  .oneof({ weight: 4, arbitrary: known![name]! }, { weight: 1, arbitrary: hostileSegment() })
                  .map((v) => [name, v] as const),
              ),
          },
        ]
      : []),
    {
      weight: 1,
      arbitrary: fc.tuple(
        small(
          'foo',
          'callId',
          'tenant',
          '__proto__',
          'constructor[prototype][x]',
          'a[]',
          'limit[]',
          '',
          'format%00',
          'x'.repeat(1_000),
        ),
        hostileSegment(),
      ),
    },
  );
  return fc.oneof(
    { weight: 2, arbitrary: cleanQuery(known) },
    { weight: 4, arbitrary: fc.array(pair, { maxLength: names.length ? 4 : 1 }) },
    {
      weight: 1,
      arbitrary: small(
        '',
        '&&&',
        'a',
        '=x',
        '%zz=1',
        'a=%zz',
        `x=${'a'.repeat(10_000)}`,
        'format=openai&format=mcp',
        'limit=1&limit=2',
        '#frag',
        '?',
      ),
    },
  );
}

/**
 * Requests for a route: 3 in 10 clean (every part valid for the route, so they reach its handler and
 * the tool behind it), the rest with every part drawn from valid and hostile values alike.
 */
function routeRequest(route: RouteDef): fc.Arbitrary<RequestSpec> {
  const name = `${route.method} ${route.template}`;
  const withBody = route.method !== 'GET' && route.method !== 'DELETE';
  const cleanBody =
    route.cleanBody ??
    (route.body && withBody
      ? route.body.map((value): BodySpec => ({ kind: 'json', value }))
      : fc.constant<BodySpec>({ kind: 'none' }));
  const clean = fc
    .record({
      path: route.path,
      query: cleanQuery(route.query),
      headers: cleanHeaders(route.roles, route.invoke === true),
      body: cleanBody,
    })
    .map((r): RequestSpec => ({
      route: name,
      method: route.method,
      contentType: 'auto',
      framing: 'honest',
      clean: true,
      ...r,
    }));
  const hostile = fc
    .record({
      method: method(route.method),
      path: route.path,
      query: query(route.query),
      headers: headers(route.roles, route.invoke === true),
      body: route.bodySpec ?? bodyFor(route.body, withBody),
      contentType,
      framing,
    })
    .map((r): RequestSpec => ({ route: name, clean: false, ...r }));
  return fc.oneof({ weight: 3, arbitrary: clean }, { weight: 7, arbitrary: hostile });
}

/** A path parameter whose valid value is fixed (the tool an invoke body is shaped for). */
const fixedParam = (value: string): fc.Arbitrary<Part> =>
  fc
    .tuple(
      hostileSegment(),
      fc.oneof({ weight: 8, arbitrary: fc.constant(false) }, { weight: 2, arbitrary: fc.constant(true) }),
    )
    .map(([h, hostile]) => new ParamChoice(value, h, hostile));

/** Invoke requests, each tool's with bodies shaped for it (built once per tool). */
function invokeRequest(): fc.Arbitrary<RequestSpec> {
  return fc.oneof(
    ...TOOLS.map((tool) =>
      routeRequest({
        ...INVOKE,
        path: path('v1', 'agents', param(AGENT_TYPES, 'agentType'), 'tools', fixedParam(tool), 'invoke'),
        bodySpec: bodyFor(invokeBody(tool), true),
        cleanBody: validInvokeBody(tool).map((value): BodySpec => ({ kind: 'json', value })),
      }),
    ),
  );
}

function unknownRequest(): fc.Arbitrary<RequestSpec> {
  return fc
    .record({
      method: fc.constantFrom(...METHODS),
      where: UNKNOWN_PATHS,
      query: query(undefined),
      headers: headers(ALL_ROLES, false),
      body: bodyFor(undefined, false),
      contentType,
      framing,
    })
    .map(({ where, ...r }): RequestSpec => ({ route: 'unknown', clean: false, ...r, ...where }));
}

/** One request to any route of the API, or to none. */
export function anyRequest(): fc.Arbitrary<RequestSpec> {
  return fc.oneof(
    { weight: INVOKE.weight, arbitrary: invokeRequest() },
    { weight: 3, arbitrary: unknownRequest() },
    ...ROUTES.map((route) => ({ weight: route.weight, arbitrary: routeRequest(route) })),
  );
}
