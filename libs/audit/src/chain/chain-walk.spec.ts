import { describe, expect, it } from 'vitest';
import { GENESIS_HASH } from '../audit-event.js';
import { draftEvent, type AuditEventDraft, type AuditEventRecord } from '../audit-fields.js';
import { ChainWalk } from './chain-walk.js';
import { deriveLinkKeys, eventHash, smEventHash, unkeyedEventHash } from './event-hash.js';

const KEYS = deriveLinkKeys('the audit secret');

const draft = (n: number): AuditEventDraft =>
  draftEvent({
    tenantId: 'acme',
    event: 'key_created',
    actor: { type: 'system', id: 'test' },
    details: { n },
    occurredAt: new Date(1_700_000_000_000 + n),
  });

/** A chain whose links are keyed ('k' HMAC-SHA256, 's' HMAC-SM3) or legacy ('u'), in the order given. */
function chain(kinds: string): AuditEventRecord[] {
  const out: AuditEventRecord[] = [];
  let prev = GENESIS_HASH;
  [...kinds].forEach((kind, i) => {
    const seq = i + 1;
    const d = draft(seq);
    const hash =
      kind === 'k'
        ? eventHash(KEYS.sha256, prev, d, seq)
        : kind === 's'
          ? smEventHash(KEYS.sm3, prev, d, seq)
          : unkeyedEventHash(prev, d, seq);
    out.push({ ...d, id: String(seq), seq, prevHash: prev, hash });
    prev = hash;
  });
  return out;
}

const walkAll = (events: AuditEventRecord[]) => {
  const walk = new ChainWalk(KEYS);
  for (const e of events) {
    const problem = walk.step(e);
    if (problem) return { at: e.seq, problem };
  }
  return { at: null, reached: walk.at };
};

describe('ChainWalk', () => {
  it('accepts legacy links followed by keyed links (v1* v2*)', () => {
    const events = chain('uuukk');
    expect(walkAll(events)).toEqual({ at: null, reached: { seq: 5, hash: events[4]!.hash, keyed: true } });
    expect(walkAll(chain('uuu'))).toMatchObject({ at: null, reached: { keyed: false } });
  });

  it('refuses a legacy link once a keyed link was seen', () => {
    expect(walkAll(chain('uukku'))).toMatchObject({
      at: 5,
      problem: expect.stringContaining('unkeyed (v1)'),
    });
    expect(walkAll(chain('kuk'))).toMatchObject({ at: 2, problem: expect.stringContaining('forged') });
  });

  it('accepts a chain that switched suite, either way and back (ADR 040)', () => {
    const events = chain('uukkssskks');
    expect(walkAll(events)).toEqual({ at: null, reached: { seq: 10, hash: events[9]!.hash, keyed: true } });
    expect(walkAll(chain('sss'))).toMatchObject({ at: null, reached: { keyed: true } });
  });

  it('refuses a legacy link after an SM3 link, and an SM3 link under another secret', () => {
    expect(walkAll(chain('ssu'))).toMatchObject({ at: 3, problem: expect.stringContaining('unkeyed (v1)') });
    const events = chain('kks');
    const other = deriveLinkKeys('another secret');
    const forged = { ...events[2]!, hash: smEventHash(other.sm3, events[1]!.hash, events[2]!, 3) };
    expect(walkAll([events[0]!, events[1]!, forged])).toMatchObject({
      at: 3,
      problem: expect.stringContaining('forged without the chain key'),
    });
    const edited = { ...events[2]!, details: { n: 99 } };
    expect(walkAll([events[0]!, events[1]!, edited])).toMatchObject({
      at: 3,
      problem: expect.stringContaining('modified'),
    });
  });

  it('names a gap, a broken link and an edit', () => {
    const events = chain('kkkk');
    expect(walkAll([events[0]!, events[2]!])).toMatchObject({
      at: 3,
      problem: 'event seq 2 is missing (deleted), before event seq 3 (id 3)',
    });
    const relinked = { ...events[1]!, prevHash: 'f'.repeat(64) };
    expect(walkAll([events[0]!, relinked])).toMatchObject({
      at: 2,
      problem: expect.stringContaining('link'),
    });
    const edited = { ...events[1]!, details: { n: 99 } };
    expect(walkAll([events[0]!, edited])).toMatchObject({
      at: 2,
      problem: expect.stringContaining('modified'),
    });
  });

  it('stays on the last good event after a refusal', () => {
    const events = chain('kk');
    const walk = new ChainWalk(KEYS);
    walk.step(events[0]!);
    expect(walk.step({ ...events[1]!, details: {} })).not.toBeNull();
    expect(walk.at).toEqual({ seq: 1, hash: events[0]!.hash, keyed: true });
    expect(walk.step(events[1]!)).toBeNull();
  });
});
