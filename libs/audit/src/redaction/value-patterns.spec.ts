import { describe, expect, it } from 'vitest';
import { Redactor } from './redactor.js';
import {
  canonicalValue,
  findSensitiveValues,
  isChineseIdNumber,
  maskValue,
  passesLuhn,
  VALUE_PATTERNS,
  type ValuePattern,
} from './value-patterns.js';

const ALL = new Set<ValuePattern>(VALUE_PATTERNS);
const mask = new Redactor({ mode: 'mask', patterns: [...VALUE_PATTERNS] }, Buffer.from('k'));

describe('findSensitiveValues: what is redacted', () => {
  it.each([
    ['a mobile among Chinese text', '电话13812345678请回电', '电话138****5678请回电'],
    ['a mobile in spaced groups', '手机 138 1234 5678', '手机 138****5678'],
    ['a mobile in hyphenated groups', '手机 138-1234-5678。', '手机 138****5678。'],
    ['a mobile with +86 and a space', '拨打 +86 138 1234 5678', '拨打 138****5678'],
    ['a mobile with +86-', 'tel:+86-13812345678;', 'tel:138****5678;'],
    ['a mobile with 86 and no plus', '8613812345678', '138****5678'],
    ['two mobiles separated by a space', '13812345678 13987654321', '138****5678 139****4321'],
    ['a mobile followed by a count', '13812345678 2 次', '138****5678 2 次'],
    ['a mobile in full-width digits', '１３８１２３４５６７８', '138****5678'],
    ['a mobile in full-width groups', '电话 １３８ １２３４ ５６７８', '电话 138****5678'],
    ['a mobile inside a JSON string', '{"phone":"13812345678"}', '{"phone":"138****5678"}'],
    ['a resident ID', '身份证 11010519491231002X', '身份证 110105********002X'],
    ['a resident ID with a lower-case x', '11010519491231002x', '110105********002X'],
    ['a resident ID right after letters', 'id11010519491231002X', 'id110105********002X'],
    ['a resident ID right before letters', '440304200002291236abc', '440304********1236abc'],
    ['a resident ID in 6-8-4 groups', 'ID 110105 19491231 002X', 'ID 110105********002X'],
    ['a resident ID born on 29 February', '440304200002291236', '440304********1236'],
    ['a Visa card in spaced groups', '卡号 4111 1111 1111 1111', '卡号 4111 **** **** 1111'],
    ['a Visa card in hyphenated groups', '4111-1111-1111-1111', '4111 **** **** 1111'],
    ['a 19-digit UnionPay card', '6222021234567890128', '6222 **** **** 0128'],
    ['an Amex card', 'amex 378282246310005.', 'amex 3782 **** **** 0005.'],
    ['a card followed by a mobile', '4111111111111111 13812345678', '4111 **** **** 1111 138****5678'],
    ['an e-mail', '邮箱 zhang.san@example.com', '邮箱 z***@example.com'],
    ['an e-mail before a full stop', 'write to li-si+ops@corp.example.cn.', 'write to l***@corp.example.cn.'],
    ['an e-mail whose local part is a mobile', '13812345678@qq.com', '1***@qq.com'],
    ['two e-mails sharing an @', 'a@b.com@c.com', 'a***@b.com@c.com'],
    [
      'everything at once',
      '联系 13812345678，身份证 11010519491231002X，卡号 4111 1111 1111 1111，邮箱 zhang.san@example.com',
      '联系 138****5678，身份证 110105********002X，卡号 4111 **** **** 1111，邮箱 z***@example.com',
    ],
  ])('redacts %s', (_name, text, redacted) => {
    expect(mask.redactText(text)).toBe(redacted);
  });
});

describe('findSensitiveValues: what is left alone', () => {
  it.each([
    ['an order number after letters', 'SO202611300001'],
    ['a hyphenated order number', 'PO-20261130-0001'],
    ['an 18-digit order number', '202611301234567890'],
    ['a date-prefixed number that passes Luhn', '2026113012345671'],
    ['a 10-digit order number', '订单 4500012345'],
    ['a mobile glued to an order prefix', 'SO13812345678'],
    ['a mobile glued to letters after it', '13812345678abc'],
    ['a 12-digit number opening like a mobile', '138123456789'],
    ['an amount', '金额 1380000'],
    ['a formatted amount', '¥13,800.00'],
    ['a millisecond timestamp that passes Luhn', '1764480000009'],
    ['a millisecond timestamp', 'at 1764480000000 ms'],
    ['a version string', 'v13.8.12345678 and 1.38.1234.5678'],
    ['IP addresses', '192.168.138.12 10.0.0.1 138.123.45.67'],
    ['a UUID', '550e8400-e29b-41d4-a716-446655440000'],
    ['a resident ID with a wrong check digit', '110105194912310021'],
    ['a resident ID with an unknown province', '990105194912310023'],
    ['a resident ID with month 13', '110105194913310021'],
    ['a resident ID born on 29 February of a common year', '110105202302290022'],
    ['a resident ID born before 1900', '110105180001010029'],
    ['ISO dates and times', '2026-11-30 2026-11-30T13:45:00Z 2026-11-30 13:45:00.123'],
    ['hex with 0x', '0x13812345678'],
    ['an @ without a domain', 'user@localhost @example.com a@b.c'],
  ])('leaves %s', (_name, text) => {
    expect(findSensitiveValues(text, ALL)).toEqual([]);
    expect(mask.redactText(text)).toBe(text);
  });
});

describe('findSensitiveValues: reporting', () => {
  it('reports pattern, offsets and the value as written', () => {
    expect(findSensitiveValues('call +86 138-1234-5678 now', ALL)).toEqual([
      { pattern: 'mobile', start: 5, end: 22, value: '+86 138-1234-5678' },
    ]);
  });

  it('finds only the enabled patterns', () => {
    const text = '13812345678 zhang@example.com 11010519491231002X';
    expect(findSensitiveValues(text, new Set<ValuePattern>(['email'])).map((m) => m.pattern)).toEqual([
      'email',
    ]);
    expect(
      findSensitiveValues(text, new Set<ValuePattern>(['mobile', 'cn_id'])).map((m) => m.pattern),
    ).toEqual(['mobile', 'cn_id']);
  });

  it('takes the mobile when e-mail is off and the e-mail when it is on', () => {
    expect(findSensitiveValues('13812345678@qq.com', new Set<ValuePattern>(['mobile']))).toMatchObject([
      { pattern: 'mobile', start: 0, end: 11 },
    ]);
  });
});

describe('checks and forms', () => {
  it('checks resident IDs: check character, province, birth date', () => {
    expect(isChineseIdNumber('11010519491231002X')).toBe(true);
    expect(isChineseIdNumber('11010519491231002x')).toBe(true);
    expect(isChineseIdNumber('110105194912310021')).toBe(false);
    expect(isChineseIdNumber('990105194912310023')).toBe(false);
    expect(isChineseIdNumber('110105194913310021')).toBe(false);
    expect(isChineseIdNumber('1101051949123100X2')).toBe(false);
    expect(isChineseIdNumber('11010519491231002')).toBe(false);
  });

  it('checks Luhn over digit strings only', () => {
    expect(passesLuhn('4111111111111111')).toBe(true);
    expect(passesLuhn('4111111111111112')).toBe(false);
    expect(passesLuhn('4111 1111 1111 1111')).toBe(false);
    expect(passesLuhn('')).toBe(false);
  });

  it('gives one canonical form, and one mask, to the ways of writing a number', () => {
    for (const written of [
      '13812345678',
      '+86 138 1234 5678',
      '86-138-1234-5678',
      '１３８１２３４５６７８',
    ]) {
      expect(canonicalValue('mobile', written)).toBe('13812345678');
      expect(maskValue('mobile', written)).toBe('138****5678');
    }
    expect(canonicalValue('cn_id', '110105 19491231 002x')).toBe('11010519491231002X');
    expect(maskValue('bank_card', '4111-1111-1111-1111')).toBe('4111 **** **** 1111');
    expect(maskValue('email', 'zhang.san@example.com')).toBe('z***@example.com');
  });
});

describe('Redactor: numbers and keys', () => {
  it('redacts integers whose digits form a pattern, and leaves other numbers', () => {
    expect(mask.redact({ phone: 13812345678, card: 4111111111111111, n: 1764480000000, x: 1.5 })).toEqual({
      phone: '138****5678',
      card: '4111 **** **** 1111',
      n: 1764480000000,
      x: 1.5,
    });
    expect(mask.redact([13812345678])).toEqual(['138****5678']);
  });

  it('redacts object keys and keeps both keys that redact alike', () => {
    expect(mask.redact({ '13812345678': '张三', '13800005678': '李四', name: 'x' })).toEqual({
      '138****5678': '张三',
      '138****5678 #2': '李四',
      name: 'x',
    });
  });

  it('fingerprints a number and its written forms alike', () => {
    const fp = new Redactor({ mode: 'fingerprint', patterns: [...VALUE_PATTERNS] }, Buffer.from('k'));
    const forms = [13812345678, '13812345678', '+86 138 1234 5678', '１３８１２３４５６７８'].map((v) =>
      fp.redact(v),
    );
    expect(new Set(forms).size).toBe(1);
    expect(forms[0]).toMatch(/^fp:mobile:[0-9a-f]{24}$/);
  });

  it('keeps a __proto__ key as data', () => {
    const input = JSON.parse('{"__proto__": {"polluted": "13812345678"}}') as object;
    const out = mask.redact(input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ polluted: '138****5678' });
  });
});
