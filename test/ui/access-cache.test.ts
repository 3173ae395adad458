import { describe, expect, it } from 'vitest';
import { AccessCache } from '../../src/ui/access-cache.js';

describe('AccessCache', () => {
  it('reuses an answer for ttlMs, then asks again', async () => {
    let now = 0;
    const cache = new AccessCache({ ttlMs: 1000, now: () => now });
    let asked = 0;
    const review = () => Promise.resolve(++asked % 2 === 1);
    expect(await cache.get('k', review)).toBe(true);
    now = 999;
    expect(cache.peek('k')).toBe(true);
    expect(await cache.get('k', review)).toBe(true);
    expect(asked).toBe(1);
    now = 1000;
    expect(cache.peek('k')).toBeUndefined();
    expect(await cache.get('k', review)).toBe(false);
    expect(asked).toBe(2);
    expect(cache.reviews).toBe(2);
  });

  it('shares one review among concurrent asks of a key', async () => {
    const cache = new AccessCache();
    let asked = 0;
    let release!: (v: boolean) => void;
    const review = () => {
      asked++;
      return new Promise<boolean>((r) => (release = r));
    };
    const both = Promise.all([cache.get('k', review), cache.get('k', review)]);
    release(true);
    expect(await both).toEqual([true, true]);
    expect(asked).toBe(1);
  });

  it('keeps no failed review, and at most maxEntries answers (oldest out first)', async () => {
    const cache = new AccessCache({ maxEntries: 2 });
    await expect(cache.get('bad', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('bad', () => Promise.resolve(true))).toBe(true);
    await cache.get('b', () => Promise.resolve(true));
    await cache.get('c', () => Promise.resolve(false));
    expect(cache.size).toBe(2);
    let asked = 0;
    await cache.get('bad', () => (asked++, Promise.resolve(false)));
    expect(asked).toBe(1);
  });
});
