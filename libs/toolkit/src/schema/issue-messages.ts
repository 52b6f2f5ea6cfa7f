import type { ErrorEnvelope } from '../errors/envelope.js';
import { ErrorCode } from '../errors/error-codes.js';
import type { Locale } from '../errors/messages.js';
import { errorEnvelope } from '../errors/toolgate-error.js';
import { formatPath, type InputIssue } from './input-issue.js';

const ROOT: Record<Locale, string> = { en: '(root)', 'zh-CN': '（根）' };

function list(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

const SUBJECT_ZH: Record<string, [string, string]> = {
  length: ['长度至少为', '长度至多为'],
  number: ['不能小于', '不能大于'],
  items: ['至少应有', '至多应有'],
  other: ['不能小于', '不能大于'],
};

function boundEn(issue: Extract<InputIssue, { kind: 'bound' }>): string {
  const op = issue.direction === 'min' ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
  const noun = issue.subject === 'length' ? ' characters' : issue.subject === 'items' ? ' items' : '';
  const what = issue.subject === 'number' || issue.subject === 'other' ? 'a value' : 'a length';
  return `expected ${what} ${op} ${issue.limit}${noun}`;
}

/**
 * The readable text of an issue, shaped so an agent can correct itself:
 * "expected string at path 'supplierId', received number".
 */
export function renderIssue(issue: InputIssue, locale: Locale): string {
  const p = issue.path.length ? formatPath(issue.path) : ROOT[locale];
  const zh = locale === 'zh-CN';
  switch (issue.kind) {
    case 'type':
      return zh
        ? `路径 '${p}' 应为 ${issue.expected}，实际收到 ${issue.received}`
        : `expected ${issue.expected} at path '${p}', received ${issue.received}`;
    case 'missing':
      return zh
        ? `路径 '${p}' 缺少必填字段，应为 ${issue.expected}`
        : `expected ${issue.expected} at path '${p}', but the field is missing`;
    case 'unknown_field':
      return zh
        ? `路径 '${p}' 是未知字段${issue.allowed.length ? `（允许的字段：${issue.allowed.join('、')}）` : ''}`
        : `unknown field at path '${p}'${issue.allowed.length ? ` (allowed: ${issue.allowed.join(', ')})` : ''}`;
    case 'value':
      return zh
        ? `路径 '${p}' 的值不在允许范围内，应为 ${list(issue.allowed)} 之一`
        : `expected one of ${list(issue.allowed)} at path '${p}'`;
    case 'bound': {
      if (zh) {
        const [min, max] = SUBJECT_ZH[issue.subject] ?? SUBJECT_ZH.other!;
        const unit = issue.subject === 'items' ? ' 项' : issue.subject === 'length' ? ' 个字符' : '';
        const strict = issue.inclusive ? '' : '（不含）';
        return `路径 '${p}' ${issue.direction === 'min' ? min : max} ${issue.limit}${unit}${strict}`;
      }
      return `${boundEn(issue)} at path '${p}'`;
    }
    case 'format':
      return zh ? `路径 '${p}' 的格式应为 ${issue.format}` : `expected format ${issue.format} at path '${p}'`;
    case 'other':
      return zh ? `路径 '${p}'：${issue.message}` : `${issue.message} at path '${p}'`;
  }
}

/** A one-line summary of the first few issues, for the envelope's `error` text. */
export function summarizeIssues(issues: readonly InputIssue[], locale: Locale, max = 3): string {
  const shown = issues.slice(0, max).map((i) => renderIssue(i, locale));
  const more = issues.length - shown.length;
  const tail = more > 0 ? (locale === 'zh-CN' ? `；另有 ${more} 处` : `; and ${more} more`) : '';
  return shown.join(locale === 'zh-CN' ? '；' : '; ') + tail;
}

/** The INVALID_INPUT envelope for a list of issues, with `details.issues[] = {path, message}`. */
export function invalidInputEnvelope(issues: readonly InputIssue[], locale: Locale): ErrorEnvelope {
  return errorEnvelope(
    ErrorCode.INVALID_INPUT,
    locale,
    { summary: summarizeIssues(issues, locale) },
    {
      issues: issues.map((i) => ({ path: formatPath(i.path), message: renderIssue(i, locale) })),
    },
  );
}
