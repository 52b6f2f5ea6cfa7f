/**
 * Names whose value is a secret when a name ends with one of them, in any case and whatever comes
 * before (`password`, `db_password`, `dbPassword`, `client_secret`, `x-api-key`, `accessToken`).
 */
const SECRET_NAME_ENDINGS = [
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'secret',
  'token',
  'apikey',
  'api_key',
  'key',
  'sig',
  'signature',
  'credential',
  'credentials',
  'authorization',
  'cookie',
];

const LONGEST_ENDING = Math.max(...SECRET_NAME_ENDINGS.map((e) => e.length));

/** What ends an unquoted value: whitespace, separators of queries, lists and JSON, quotes. */
const VALUE_STOPS = new Set([...' \t\n\r\f\v&,;}])"\'<>']);
/** Spaces allowed between a name, its `=` or `:`, and its value. */
const MAX_GAP = 8;
const MASK = '***';

function isNameChar(c: string): boolean {
  return (
    (c >= 'a' && c <= 'z') ||
    (c >= 'A' && c <= 'Z') ||
    (c >= '0' && c <= '9') ||
    c === '_' ||
    c === '-' ||
    c === '.'
  );
}

function isSecretName(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_NAME_ENDINGS.some((ending) => lower.endsWith(ending));
}

function skipSpaces(text: string, from: number): number {
  let i = from;
  while (i < text.length && i - from < MAX_GAP && (text[i] === ' ' || text[i] === '\t')) i++;
  return i;
}

/** Where a quoted value that opens at `open` ends (after its closing quote, or the text's end). */
function quotedEnd(text: string, open: number): number {
  const quote = text[open]!;
  let i = open + 1;
  while (i < text.length && text[i] !== quote) i += text[i] === '\\' ? 2 : 1;
  return Math.min(i + 1, text.length);
}

/**
 * Masks the value of every secret-looking `name=value` or `name: value` in a text: at its start,
 * after `?`, `&`, a space or any other separator, and in JSON (`"password": "…"`). One forward
 * scan: each character is read a bounded number of times, so adversarial text stays linear.
 * @example maskSecretAssignments('login failed password=hunter2') // 'login failed password=***'
 */
export function maskSecretAssignments(text: string): string {
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    if (!isNameChar(text[i]!) || (i > 0 && isNameChar(text[i - 1]!))) {
      i++;
      continue;
    }
    let end = i;
    while (end < text.length && isNameChar(text[end]!)) end++;
    let j = end;
    if ((text[j] === '"' || text[j] === "'") && text[i - 1] === text[j]) j++;
    j = skipSpaces(text, j);
    const assigns = (text[j] === '=' || text[j] === ':') && !text.startsWith('//', j + 1);
    if (!assigns || !isSecretName(text.slice(Math.max(i, end - LONGEST_ENDING), end))) {
      i = end;
      continue;
    }
    const valueStart = skipSpaces(text, j + 1);
    const quoted = text[valueStart] === '"' || text[valueStart] === "'";
    let valueEnd = quoted ? quotedEnd(text, valueStart) : valueStart;
    if (!quoted) while (valueEnd < text.length && !VALUE_STOPS.has(text[valueEnd]!)) valueEnd++;
    if (valueEnd > valueStart) {
      const q = quoted ? text[valueStart]! : '';
      out += `${text.slice(copied, valueStart)}${q}${MASK}${q}`;
      copied = valueEnd;
    }
    i = Math.max(valueEnd, end);
  }
  return out + text.slice(copied);
}
