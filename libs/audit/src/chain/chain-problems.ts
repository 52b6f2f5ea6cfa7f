import type { Locale } from '@toolgate/toolkit';

/**
 * What a verification says broke, in English (the words the verifier, the logs, alarms and the
 * offline tools use) and in Chinese (the console's language, issue 23). Each English template is
 * exactly the text the verifier writes; {@link localizedProblem} reads a problem back through the
 * same table, so a text and its translation cannot drift apart without the table's spec failing.
 * Placeholders hold numbers, ids, times and the archive's location, never anything a caller sent.
 */
const PROBLEMS: readonly (readonly [en: string, zh: string])[] = [
  [
    'checkpoint at seq {seq} has an invalid signature (forged or signed with another key)',
    '序号 {seq} 处的检查点签名无效（被伪造，或由其他密钥签名）',
  ],
  [
    'events after seq {seq} were not written by the gateway (the chain head records {head}): inserted, first {event}',
    '序号 {seq} 之后的事件不是网关写入的（链头记录为 {head}）：被插入，第一条是{event}',
  ],
  [
    'the chain head records {head} events, fewer than the {signed} a checkpoint signed (newest events deleted)',
    '链头只记录了 {head} 条事件，少于检查点签名的 {signed} 条（最新的事件被删除）',
  ],
  [
    'event seq {seq}, signed by the checkpoint of {signedAt}, is missing (deleted)',
    '序号 {seq} 的事件（{signedAt} 的检查点已签名）缺失（被删除）',
  ],
  [
    '{event} is not the one the checkpoint of {signedAt} signed: re-hashed',
    '{event}不是 {signedAt} 的检查点所签名的那一条：被重新计算了哈希',
  ],
  [
    '{event} does not verify: modified after it was written, or forged without the chain key',
    '{event}校验不通过：写入后被修改，或在没有链密钥的情况下被伪造',
  ],
  [
    'the chain was re-hashed: an event between {from} and {to} was changed after the checkpoint signed at {signedAt}',
    '哈希链被重新计算：{from}与{to}之间有事件在 {signedAt} 的检查点签名之后被修改',
  ],
  [
    'events after seq {seq} are missing: a checkpoint signed at {signedAt} covers {covered} events (newest events deleted; the checkpoint is gone from the database, its exported copy remains)',
    '序号 {seq} 之后的事件缺失：{signedAt} 签名的检查点覆盖 {covered} 条事件（最新的事件被删除；数据库中的该检查点也已不在，导出的副本仍在）',
  ],
  [
    'events after seq {seq} are missing: a checkpoint signed at {signedAt} covers {covered} events (newest events deleted)',
    '序号 {seq} 之后的事件缺失：{signedAt} 签名的检查点覆盖 {covered} 条事件（最新的事件被删除）',
  ],
  [
    'events after seq {seq} are missing: the chain head records {head} events (newest events deleted)',
    '序号 {seq} 之后的事件缺失：链头记录了 {head} 条事件（最新的事件被删除）',
  ],
  [
    'the newest event ({event}) is not the one the chain head records: replaced',
    '最新的事件（{event}）不是链头记录的那一条：被替换',
  ],
  [
    'event seq {from}–{to} is missing (deleted), before {event}',
    '序号 {from}–{to} 的事件缺失（被删除），位于{event}之前',
  ],
  [
    'event seq {seq} is missing (deleted), before {event}',
    '序号 {seq} 的事件缺失（被删除），位于{event}之前',
  ],
  [
    '{event} does not link to the event before it (inserted or reordered)',
    '{event}没有链接到它之前的事件（被插入或调换了顺序）',
  ],
  [
    '{event} has an unkeyed (v1) link after keyed ones: not written by the gateway (forged)',
    '{event}在带密钥的链接之后出现了不带密钥的（v1）链接：不是网关写入的（伪造）',
  ],
  [
    'events up to seq {seq} were removed from the database, but the archive ({location}) holds no range that covers them (deleted without archiving)',
    '序号 {seq} 及之前的事件已从数据库移除，但归档（{location}）中没有覆盖它们的范围（未归档即被删除）',
  ],
  [
    'the purge boundary at seq {seq} does not match the archived range ending there ({ending}): moved or forged',
    '序号 {seq} 处的清除边界与在此结束的归档范围（{ending}）不符：被移动或伪造',
  ],
  ['the chain does not verify', '哈希链校验不通过'],
];

/** `event seq 42 (id 1234)`, as the verifier names an event (chain-walk's `eventName`). */
const EVENT_NAME = /^event seq (\d+) \(id ([^()\s]+)\)$/;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each template as an anchored pattern: its literal parts exactly, each placeholder one lazy group. */
const PATTERNS = PROBLEMS.map(([en, zh]) => {
  const names: string[] = [];
  const source = en
    .split(/(\{\w+\})/)
    .map((part) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      if (!name) return escape(part);
      names.push(name);
      return '(.+?)';
    })
    .join('');
  return { pattern: new RegExp(`^${source}$`), names, zh };
});

/** The longest problem text read back: the verifier's are far shorter; anything longer stays as it is. */
const MAX_PROBLEM_CHARS = 2_000;

/**
 * A verification problem in the caller's language: the English text as written, or its Chinese
 * form (events named `事件（序号 42，ID 1234）`). A problem prefixed with its tenant (`acme: …`, the
 * summary line) keeps the prefix. A text the table does not know stays English.
 */
export function localizedProblem(problem: string, locale: Locale): string {
  if (locale === 'en' || problem.length > MAX_PROBLEM_CHARS) return problem;
  // `acme: …`: a tenant id has no space, a problem's own wording before a colon does.
  const colon = problem.indexOf(': ');
  const prefix = colon > 0 ? problem.slice(0, colon) : '';
  const rest = prefix && !prefix.includes(' ') ? translate(problem.slice(colon + 2)) : undefined;
  if (rest !== undefined) return `${prefix}：${rest}`;
  return translate(problem) ?? problem;
}

function translate(text: string): string | undefined {
  for (const { pattern, names, zh } of PATTERNS) {
    const m = pattern.exec(text);
    // An `{event}` is always an event's name (`event seq 42 (id 1234)`), nothing else.
    if (!m || names.some((name, i) => name === 'event' && !EVENT_NAME.test(m[i + 1]!))) continue;
    // A function, not a string: a value with `$&` in it is put in as it is.
    return names.reduce((out, name, i) => out.replace(`{${name}}`, () => eventInChinese(m[i + 1]!)), zh);
  }
  return undefined;
}

function eventInChinese(value: string): string {
  const m = EVENT_NAME.exec(value);
  return m ? `事件（序号 ${m[1]}，ID ${m[2]}）` : value;
}

/** A verification with every problem text in the caller's language (the API's answer). */
export function localizedVerification<
  V extends {
    readonly problem?: string;
    readonly tenants: readonly {
      readonly problem?: string;
      readonly breaks?: readonly { readonly problem: string }[];
    }[];
  },
>(v: V, locale: Locale): V {
  if (locale === 'en') return v;
  const say = (p: string | undefined) => (p === undefined ? undefined : localizedProblem(p, locale));
  return {
    ...v,
    ...(v.problem === undefined ? {} : { problem: say(v.problem) }),
    tenants: v.tenants.map((t) => ({
      ...t,
      ...(t.problem === undefined ? {} : { problem: say(t.problem) }),
      ...(t.breaks ? { breaks: t.breaks.map((b) => ({ ...b, problem: say(b.problem)! })) } : {}),
    })),
  };
}
