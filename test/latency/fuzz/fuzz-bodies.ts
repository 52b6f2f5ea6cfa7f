import fc from 'fast-check';
import { KeyRef, PoolRef, RawJson, VersionRef, type FuzzWorld } from './fuzz-world.js';

/** A JSON-like value whose leaves may be resolved later (ids, versions) or written raw (numbers). */
export type JsonLike =
  | null
  | boolean
  | number
  | string
  | PoolRef
  | VersionRef
  | KeyRef
  | RawJson
  | JsonLike[]
  | { [key: string]: JsonLike };

/** An edit of the JSON text of a body, where a parser's strictness shows. */
export type TextEdit =
  | { readonly op: 'truncate'; readonly at: number }
  | { readonly op: 'duplicate-key'; readonly escaped: boolean }
  | { readonly op: 'invalid-utf8'; readonly at: number; readonly bytes: readonly number[] }
  | { readonly op: 'prototype'; readonly key: string }
  | { readonly op: 'bom' }
  | { readonly op: 'trailing'; readonly text: string };

/** What a request carries as its body. */
export type BodySpec =
  | { readonly kind: 'none' }
  | { readonly kind: 'json'; readonly value: JsonLike; readonly edit?: TextEdit }
  | { readonly kind: 'bytes'; readonly bytes: Uint8Array }
  | { readonly kind: 'huge'; readonly bytes: number; readonly char: string }
  | { readonly kind: 'deep'; readonly depth: number; readonly objects: boolean }
  | { readonly kind: 'many-keys'; readonly count: number }
  | { readonly kind: 'yaml'; readonly index: number; readonly cut?: number; readonly append?: string };

/** Where a body is sent: the resolved path (for binding versions). */
export interface BodyContext {
  readonly tenantId?: string;
  readonly agentType?: string;
}

/** Serialises a JsonLike; object keys in insertion order, own keys only (so `__proto__` is kept). */
export function jsonText(value: JsonLike, world: FuzzWorld, ctx: BodyContext): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof PoolRef) return JSON.stringify(world.value(value) ?? null);
  if (value instanceof KeyRef) return JSON.stringify(world.key(value) ?? null);
  if (value instanceof VersionRef) {
    const current = ctx.tenantId && ctx.agentType ? world.version(ctx.tenantId, ctx.agentType) : undefined;
    return String(Math.max(0, (current ?? 0) + value.offset));
  }
  if (Array.isArray(value)) return `[${value.map((v) => jsonText(v, world, ctx)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value).map(
      (k) => `${JSON.stringify(k)}:${jsonText((value as Record<string, JsonLike>)[k]!, world, ctx)}`,
    );
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function applyEdit(text: string, edit: TextEdit): Buffer {
  switch (edit.op) {
    case 'truncate':
      return Buffer.from(text.slice(0, edit.at % Math.max(1, text.length)));
    case 'duplicate-key': {
      // The first key again at the end of the outer object: `{"input":{...},"input":{}}`.
      const key = /^\{"((?:[^"\\]|\\.)*)"/.exec(text)?.[1];
      if (!key || !text.endsWith('}')) return Buffer.from(`${text}`);
      const spelled = edit.escaped
        ? `\\u${key.charCodeAt(0).toString(16).padStart(4, '0')}${key.slice(1)}`
        : key;
      return Buffer.from(`${text.slice(0, -1)},"${spelled}":{}}`);
    }
    case 'invalid-utf8': {
      const bytes = Buffer.from(text);
      const at = edit.at % (bytes.length + 1);
      return Buffer.concat([bytes.subarray(0, at), Buffer.from(edit.bytes), bytes.subarray(at)]);
    }
    case 'prototype':
      return Buffer.from(text.startsWith('{') ? `{"${edit.key}":{"polluted":true},${text.slice(1)}` : text);
    case 'bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    case 'trailing':
      return Buffer.from(text + edit.text);
  }
}

/**
 * Bodies that depend on nothing but their spec (huge, deep, many keys), built once: making a
 * megabyte of text for every request would cost the event loop the gateway shares.
 */
const builtOnce = new Map<string, Buffer>();

/** The bytes of a body, with ids, versions and tenant files resolved against what the fuzzer knows. */
export function renderBody(spec: BodySpec, world: FuzzWorld, ctx: BodyContext): Buffer | undefined {
  if (spec.kind === 'huge' || spec.kind === 'deep' || spec.kind === 'many-keys') {
    const key = JSON.stringify(spec);
    let body = builtOnce.get(key);
    if (!body) builtOnce.set(key, (body = buildBody(spec, world, ctx)!));
    return body;
  }
  return buildBody(spec, world, ctx);
}

function buildBody(spec: BodySpec, world: FuzzWorld, ctx: BodyContext): Buffer | undefined {
  switch (spec.kind) {
    case 'none':
      return undefined;
    case 'json': {
      const text = jsonText(spec.value, world, ctx);
      return spec.edit ? applyEdit(text, spec.edit) : Buffer.from(text);
    }
    case 'bytes':
      return Buffer.from(spec.bytes);
    case 'huge': {
      // `{"input":{"service":"xxxx…"}}` of about `bytes` bytes, built without a slow generator.
      const unit = Buffer.byteLength(spec.char);
      const filler = spec.char.repeat(Math.max(0, Math.floor((spec.bytes - 40) / unit)));
      return Buffer.from(`{"input":{"service":"${filler}","reason":"x"}}`);
    }
    case 'deep': {
      const open = spec.objects ? '{"a":' : '[';
      const close = spec.objects ? '}' : ']';
      return Buffer.from(`{"input":${open.repeat(spec.depth)}1${close.repeat(spec.depth)}}`);
    }
    case 'many-keys': {
      const keys = Array.from({ length: spec.count }, (_, i) => `"k${i}":${i}`);
      return Buffer.from(`{"input":{${keys.join(',')}}}`);
    }
    case 'yaml': {
      let yaml = world.value(new PoolRef('yaml', spec.index)) ?? 'id: nobody\nname: Nobody\n';
      if (spec.cut !== undefined) yaml = yaml.slice(0, spec.cut % Math.max(1, yaml.length));
      if (spec.append !== undefined) yaml += spec.append;
      return Buffer.from(JSON.stringify({ yaml }));
    }
  }
}

/** Values of every JSON type but the right one, and numbers JSON.stringify cannot write. */
const WRONG_VALUES: readonly JsonLike[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  '',
  'x',
  ' ',
  [],
  {},
  [null],
  { a: {} },
  'a'.repeat(5_000),
  new RawJson('1e309'),
  new RawJson('-1e309'),
  new RawJson('1e-400'),
  new RawJson('-0'),
  new RawJson('123456789012345678901234567890'),
  new RawJson('9007199254740993'),
  new RawJson('NaN'),
  new RawJson('Infinity'),
  new RawJson('0x10'),
  new RawJson('01'),
  new RawJson('"\\ud800"'),
  new RawJson('"a\\u0000b"'),
];

function isPlainObject(v: JsonLike): v is { [key: string]: JsonLike } {
  return (
    v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype
  );
}

/** The key paths of an object, two levels deep (`input.service`). */
function keyPaths(v: JsonLike, prefix: string[] = []): string[][] {
  if (!isPlainObject(v) || prefix.length >= 2) return [];
  return Object.keys(v).flatMap((k) => [[...prefix, k], ...keyPaths(v[k]!, [...prefix, k])]);
}

function cloneJson(v: JsonLike): JsonLike {
  if (Array.isArray(v)) return v.map(cloneJson);
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cloneJson(x)]));
  return v;
}

/** One field of a valid body made wrong: another type, removed, or joined by an unknown field. */
export function wrongField(valid: fc.Arbitrary<JsonLike>): fc.Arbitrary<JsonLike> {
  return fc
    .tuple(
      valid,
      fc.nat(),
      fc.constantFrom('replace', 'replace', 'delete', 'add'),
      fc.constantFrom(...WRONG_VALUES),
    )
    .map(([value, pick, op, wrong]) => {
      const copy = cloneJson(value);
      const paths = keyPaths(copy);
      if (paths.length === 0) return wrong;
      const path = paths[pick % paths.length]!;
      let parent = copy as Record<string, JsonLike>;
      for (const k of path.slice(0, -1)) parent = parent[k] as Record<string, JsonLike>;
      const last = path[path.length - 1]!;
      if (op === 'replace') parent[last] = wrong;
      else if (op === 'delete') delete parent[last];
      else parent.unexpectedField = wrong;
      return copy;
    });
}

const INVALID_UTF8: readonly (readonly number[])[] = [
  [0xc3, 0x28],
  [0xff],
  [0x80],
  [0xed, 0xa0, 0x80],
  [0xc0, 0xaf],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xe6, 0x97],
  [0xf4, 0x90, 0x80, 0x80],
];

const BODY_LIMIT = 1_048_576;

/** Nesting depths around the parser's limit of 128 (and far past it). */
const DEPTHS = [100, 127, 128, 129, 200, 5_000, 100_000];
const KEY_COUNTS = [1_000, 20_000, 100_000];
/** Body sizes around the 1 MiB limit, and the characters that fill them (1, 3 and 4 UTF-8 bytes). */
const HUGE_SIZES = [65_536, 512 * 1024, BODY_LIMIT - 64, BODY_LIMIT + 1, 1_500_000];
const HUGE_CHARS = ['x', '中', '😀'];

/** Builds every large body once, before a measured run: the first build of each costs the loop. */
export function prebuildLargeBodies(world: FuzzWorld): void {
  const specs: BodySpec[] = [
    ...DEPTHS.flatMap((depth) =>
      [true, false].map((objects): BodySpec => ({ kind: 'deep', depth, objects })),
    ),
    ...KEY_COUNTS.map((count): BodySpec => ({ kind: 'many-keys', count })),
    ...HUGE_SIZES.flatMap((bytes) => HUGE_CHARS.map((char): BodySpec => ({ kind: 'huge', bytes, char }))),
  ];
  for (const spec of specs) renderBody(spec, world, {});
}

/**
 * Every kind of body for a route: mostly its valid shape, then the same with a wrong field, any
 * JSON, and the hostile ones (deep, duplicate keys, invalid UTF-8, prototype keys, truncated,
 * huge, unwritable numbers, random bytes, a hundred thousand keys).
 */
export function bodyFor(
  valid: fc.Arbitrary<JsonLike> | undefined,
  wantsBody: boolean,
): fc.Arbitrary<BodySpec> {
  const shaped = valid ?? fc.constant<JsonLike>({});
  const json = (value: fc.Arbitrary<JsonLike>, edit?: fc.Arbitrary<TextEdit>) =>
    edit
      ? fc.tuple(value, edit).map(([v, e]): BodySpec => ({ kind: 'json', value: v, edit: e }))
      : value.map((v): BodySpec => ({ kind: 'json', value: v }));
  const hostile: fc.Arbitrary<BodySpec> = fc.oneof(
    json(fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<JsonLike>),
    json(fc.jsonValue({ maxDepth: 3 }).map((input) => ({ input }) as JsonLike)),
    json(
      shaped,
      fc.nat().map((at): TextEdit => ({ op: 'truncate', at })),
    ),
    json(
      shaped,
      fc.boolean().map((escaped): TextEdit => ({ op: 'duplicate-key', escaped })),
    ),
    json(
      shaped,
      fc
        .tuple(fc.nat(), fc.constantFrom(...INVALID_UTF8))
        .map(([at, bytes]): TextEdit => ({ op: 'invalid-utf8', at, bytes })),
    ),
    json(
      shaped,
      fc.constantFrom('__proto__', 'constructor').map((key): TextEdit => ({ op: 'prototype', key })),
    ),
    json(shaped, fc.constant<TextEdit>({ op: 'bom' })),
    json(
      shaped,
      fc
        .constantFrom('{}', ',', ' garbage', '\u0000', '}}}}', '\n{"input":{}}')
        .map((text): TextEdit => ({ op: 'trailing', text })),
    ),
    json(
      fc.constantFrom<JsonLike>(
        { input: { constructor: { prototype: { polluted: true } } } },
        { input: { ['__proto__']: 1 } },
      ),
    ),
    fc
      .tuple(fc.constantFrom(...DEPTHS), fc.boolean())
      .map(([depth, objects]): BodySpec => ({ kind: 'deep', depth, objects })),
    fc.constantFrom(...KEY_COUNTS).map((count): BodySpec => ({ kind: 'many-keys', count })),
    fc
      .tuple(fc.constantFrom(...HUGE_SIZES), fc.constantFrom(...HUGE_CHARS))
      .map(([bytes, char]): BodySpec => ({ kind: 'huge', bytes, char })),
    fc.uint8Array({ maxLength: 64 }).map((bytes): BodySpec => ({ kind: 'bytes', bytes })),
  );
  const none = fc.constant<BodySpec>({ kind: 'none' });
  if (!wantsBody)
    return fc.oneof({ weight: 12, arbitrary: none }, { weight: 1, arbitrary: json(shaped) }, hostile);
  return fc.oneof(
    { weight: 1, arbitrary: none },
    { weight: 8, arbitrary: json(shaped) },
    { weight: 3, arbitrary: json(wrongField(shaped)) },
    { weight: 5, arbitrary: hostile },
  );
}
