import { describe, expect, it } from 'vitest';
import { StreamLimits } from '../../src/ui/stream-limits.js';

describe('StreamLimits', () => {
  it('refuses a reader at its cap with 429 and Retry-After, and lets another reader in', () => {
    const limits = new StreamLimits({ perReader: 2, total: 10, retryAfterSeconds: 7 });
    const a1 = limits.acquire('a');
    const a2 = limits.acquire('a');
    expect(a1.ok && a2.ok).toBe(true);
    const a3 = limits.acquire('a');
    expect(a3).toMatchObject({ ok: false, status: 429, retryAfter: 7 });
    expect(limits.acquire('b').ok).toBe(true);
    if (a1.ok) a1.release();
    expect(limits.acquire('a').ok).toBe(true);
  });

  it('keeps a global cap (503) over all readers', () => {
    const limits = new StreamLimits({ perReader: 8, total: 3 });
    for (const r of ['a', 'b', 'c']) expect(limits.acquire(r).ok).toBe(true);
    expect(limits.acquire('d')).toMatchObject({ ok: false, status: 503 });
  });

  it('releases once however often release is called, and forgets readers with no stream', () => {
    const limits = new StreamLimits({ perReader: 1, total: 5 });
    const g = limits.acquire('a');
    const other = limits.acquire('b');
    if (!g.ok || !other.ok) throw new Error('refused');
    g.release();
    g.release();
    expect(limits.count()).toBe(1);
    expect(limits.count('a')).toBe(0);
    expect(limits.count('b')).toBe(1);
  });
});
