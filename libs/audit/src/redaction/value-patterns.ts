/** The value patterns a tenant may turn on; all are on by default. */
export const VALUE_PATTERNS = ['cn_id', 'mobile', 'bank_card', 'email'] as const;
export type ValuePattern = (typeof VALUE_PATTERNS)[number];

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** A mainland resident identity number (GB 11643): 18 characters with a valid check digit. */
export function isChineseIdNumber(s: string): boolean {
  if (!/^\d{17}[\dXx]$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(s[i]) * ID_WEIGHTS[i]!;
  return ID_CHECK[sum % 11] === s[17]!.toUpperCase();
}

/** Luhn check of a digit string (bank cards). */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** One sensitive value found inside a string. */
export interface Match {
  readonly pattern: ValuePattern;
  readonly start: number;
  readonly end: number;
  readonly value: string;
}

// Digit runs are found once and classified, so an ID number is never half-matched as a phone.
const DIGIT_RUN = /(?<![\dA-Za-z])(?:\+?86[- ]?)?\d[\d -]{9,22}[\dXx](?![\dA-Za-z])/g;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

function classifyDigits(raw: string): ValuePattern | undefined {
  const compact = raw.replace(/[ -]/g, '');
  if (isChineseIdNumber(compact)) return 'cn_id';
  const phone = compact.replace(/^\+?86/, '');
  if (/^1[3-9]\d{9}$/.test(phone)) return 'mobile';
  if (/^\d{13,19}$/.test(compact) && passesLuhn(compact)) return 'bank_card';
  return undefined;
}

/** Finds the sensitive values in a string, for the enabled patterns. */
export function findSensitiveValues(text: string, enabled: ReadonlySet<ValuePattern>): Match[] {
  const matches: Match[] = [];
  if (enabled.has('cn_id') || enabled.has('mobile') || enabled.has('bank_card')) {
    for (const m of text.matchAll(DIGIT_RUN)) {
      const pattern = classifyDigits(m[0]);
      if (pattern && enabled.has(pattern))
        matches.push({ pattern, start: m.index, end: m.index + m[0].length, value: m[0] });
    }
  }
  if (enabled.has('email')) {
    for (const m of text.matchAll(EMAIL))
      matches.push({ pattern: 'email', start: m.index, end: m.index + m[0].length, value: m[0] });
  }
  return matches.sort((a, b) => a.start - b.start);
}

/** The masked form of a value: enough to recognise, not enough to use (`138****5678`). */
export function maskValue(pattern: ValuePattern, value: string): string {
  const compact = value.replace(/[ -]/g, '');
  switch (pattern) {
    case 'mobile': {
      const local = compact.replace(/^\+?86/, '');
      return `${local.slice(0, 3)}****${local.slice(-4)}`;
    }
    case 'cn_id':
      return `${compact.slice(0, 6)}********${compact.slice(-4)}`;
    case 'bank_card':
      return `${compact.slice(0, 4)} **** **** ${compact.slice(-4)}`;
    case 'email': {
      const [local = '', domain = ''] = value.split('@');
      return `${local.slice(0, 1)}***@${domain}`;
    }
  }
}
