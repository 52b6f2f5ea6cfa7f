import { describe, expect, it } from 'vitest';
import { ChainHeadCache } from './chain-head-cache.js';

const tick = () => new Promise((r) => setImmediate(r));

describe('ChainHeadCache', () => {
  it('runs the appends of one tenant one after another, in the order they asked', async () => {
    const view = new ChainHeadCache();
    const log: string[] = [];
    let releaseFirst!: () => void;
    const first = view.exclusive(['a'], async () => {
      log.push('first starts');
      await new Promise<void>((r) => (releaseFirst = r));
      log.push('first ends');
    });
    const second = view.exclusive(['a', 'b'], async () => void log.push('second'));
    const other = view.exclusive(['c'], async () => void log.push('other tenant'));
    await tick();
    expect(log).toEqual(['first starts', 'other tenant']);
    releaseFirst();
    await Promise.all([first, second, other]);
    expect(log).toEqual(['first starts', 'other tenant', 'first ends', 'second']);
  });

  it('lets the next append run after one that failed', async () => {
    const view = new ChainHeadCache();
    const failed = view.exclusive(['a'], () => Promise.reject(new Error('boom')));
    await expect(failed).rejects.toThrow('boom');
    await expect(view.exclusive(['a'], async () => 'ran')).resolves.toBe('ran');
  });

  it('remembers heads until told to forget them, and the calls it saw opened until closed', () => {
    const view = new ChainHeadCache();
    view.setHead('a', { seq: 3, hash: 'h3' });
    expect(view.head('a')).toEqual({ seq: 3, hash: 'h3' });
    view.forget(['a']);
    expect(view.head('a')).toBeUndefined();
    view.markOpen('a/c1:started');
    expect(view.isOpen('a/c1:started')).toBe(true);
    view.markClosed('a/c1:started');
    expect(view.isOpen('a/c1:started')).toBe(false);
  });

  it('forgets the oldest opened calls beyond its bound (they then take the locked path)', () => {
    const view = new ChainHeadCache();
    for (let i = 0; i <= 100_000; i++) view.markOpen(`a/c${i}:started`);
    expect(view.isOpen('a/c0:started')).toBe(false);
    expect(view.isOpen('a/c100000:started')).toBe(true);
  });
});
