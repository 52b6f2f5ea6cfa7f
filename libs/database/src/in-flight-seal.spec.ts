import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  addInFlightKey,
  forgetInFlightKeys,
  deriveInFlightKey,
  inFlightJson,
  isSealed,
  openJson,
  openText,
  sealJson,
  sealText,
} from './in-flight-seal.js';

describe('in-flight data sealed at rest', () => {
  // The ring is the process's, and unit files share workers: leave none of this spec's keys behind.
  afterEach(() => forgetInFlightKeys());
  it('seals text and JSON so no byte of them is in what is stored, and opens them again', () => {
    addInFlightKey(deriveInFlightKey('spec secret one'));
    const sealed = sealText('客户 13812345678');
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain('13812345678');
    expect(openText(sealed)).toBe('客户 13812345678');
    expect(sealText('same')).not.toBe(sealText('same')); // a fresh IV each time
    const json = sealJson({ phone: '13812345678', n: 1 });
    expect(json).not.toContain('13812345678');
    expect(openJson(json)).toEqual({ phone: '13812345678', n: 1 });
    expect(inFlightJson.from(inFlightJson.to({ a: [1, '2'] }))).toEqual({ a: [1, '2'] });
    expect(sealJson(null)).toBeNull();
  });

  it('opens values sealed under every key of the ring, and passes values never sealed through', () => {
    addInFlightKey(deriveInFlightKey('spec secret one'));
    const older = sealText('older');
    addInFlightKey(deriveInFlightKey('spec secret two'));
    expect(openText(older)).toBe('older');
    expect(openText('plain text')).toBe('plain text');
    expect(openJson({ redacted: '138****5678' })).toEqual({ redacted: '138****5678' });
  });

  it('refuses a value sealed under a key it does not hold, and one that was changed', () => {
    addInFlightKey(deriveInFlightKey('spec secret one'));
    const sealed = sealText('x');
    const foreign = `tg1:ffffffff:${sealed.split(':')[2]}`;
    expect(() => openText(foreign)).toThrow(/does not hold/);
    const body = Buffer.from(sealed.split(':')[2]!, 'base64');
    body[body.length - 1]! ^= 1;
    expect(() => openText(`${sealed.split(':').slice(0, 2).join(':')}:${body.toString('base64')}`)).toThrow();
    expect(() => addInFlightKey(randomBytes(16))).toThrow(/32 bytes/);
  });
});
