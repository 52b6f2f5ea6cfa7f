import { describe, expect, it } from 'vitest';
import { allowedApprovals, isAtLeastAsStrict } from './approval-order.js';
import { diffBindings, isEmptyDiff } from './binding-diff.js';

describe('approval order', () => {
  it('orders never < once < always', () => {
    expect(isAtLeastAsStrict('always', 'once')).toBe(true);
    expect(isAtLeastAsStrict('once', 'once')).toBe(true);
    expect(isAtLeastAsStrict('never', 'once')).toBe(false);
  });

  it('lets a binding keep or tighten the declared approval, and gives L0 tools none', () => {
    expect(allowedApprovals('L2', 'once')).toEqual(['once', 'always']);
    expect(allowedApprovals('L3', 'never')).toEqual(['never', 'once', 'always']);
    expect(allowedApprovals('L0', 'never')).toEqual(['never']);
  });
});

describe('diffBindings', () => {
  it('names added, removed and changed tools; changed entries without their unset fields', () => {
    const diff = diffBindings(
      [{ name: 'a' }, { name: 'b', timeoutMs: 5000 }, { name: 'c', approval: 'once' }],
      [
        { name: 'b', timeoutMs: 3000, implementation: undefined },
        { name: 'c', approval: 'once' },
        { name: 'd' },
      ],
    );
    expect(diff).toEqual({
      added: ['d'],
      removed: ['a'],
      changed: [{ name: 'b', from: { name: 'b', timeoutMs: 5000 }, to: { name: 'b', timeoutMs: 3000 } }],
    });
    expect(Object.keys(diff.changed[0]!.to)).toEqual(['name', 'timeoutMs']);
  });

  it('sees no change when only unset fields or field order differ', () => {
    const diff = diffBindings(
      [{ name: 'a', approval: 'always', timeoutMs: 100 }],
      [{ timeoutMs: 100, name: 'a', approval: 'always', implementation: undefined }],
    );
    expect(isEmptyDiff(diff)).toBe(true);
  });
});
