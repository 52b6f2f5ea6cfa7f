import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  decryptFeishu,
  feishuCallbackSignature,
  readFeishuCallback,
  signatureMatches,
} from './feishu-callback.js';

function encrypt(plain: string, key: string, iv = randomBytes(16)): string {
  const cipher = createCipheriv('aes-256-cbc', createHash('sha256').update(key).digest(), iv);
  return Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final()]).toString('base64');
}

describe('Feishu callbacks', () => {
  it('verifies sha256(timestamp + nonce + encryptKey + body) in constant time', () => {
    const body = Buffer.from('{"encrypt":"x"}');
    const signature = createHash('sha256').update(`1700000000n1key{"encrypt":"x"}`).digest('hex');
    expect(feishuCallbackSignature('1700000000', 'n1', 'key', body)).toBe(signature);
    expect(signatureMatches({ timestamp: '1700000000', nonce: 'n1', signature }, 'key', body)).toBe(true);
    expect(signatureMatches({ timestamp: '1700000000', nonce: 'n2', signature }, 'key', body)).toBe(false);
    expect(signatureMatches({ timestamp: '1700000000', nonce: 'n1' }, 'key', body)).toBe(false);
  });

  it('decrypts AES-256-CBC bodies and refuses garbage', () => {
    expect(decryptFeishu(encrypt('{"a":1}', 'k'), 'k')).toBe('{"a":1}');
    // A fixed IV: with a random one, a wrong key yields valid padding about once in 256 runs.
    expect(() => decryptFeishu(encrypt('{"a":1}', 'k', Buffer.alloc(16, 7)), 'other')).toThrow();
    expect(() => decryptFeishu('c2hvcnQ=', 'k')).toThrow();
  });

  it('reads card.action.trigger, the older card callback and the URL check', () => {
    const value = { toolgate: 'decide', tenantId: 'acme', approvalId: 'apr_1', decision: 'deny' };
    expect(
      readFeishuCallback({
        schema: '2.0',
        header: { event_id: 'e1', token: 't' },
        event: { operator: { open_id: 'ou_1' }, action: { value } },
      }),
    ).toEqual({ token: 't', eventId: 'e1', openId: 'ou_1', userId: undefined, decide: value });
    expect(
      readFeishuCallback({ open_id: 'ou_2', token: 't', action: { value: JSON.stringify(value) } })?.decide,
    ).toEqual(value);
    expect(readFeishuCallback({ type: 'url_verification', challenge: 'c', token: 't' })).toEqual({
      challenge: 'c',
      token: 't',
    });
    expect(
      readFeishuCallback({ event: { action: { value: { decision: 'approve' } } } })?.decide,
    ).toBeUndefined();
  });
});
