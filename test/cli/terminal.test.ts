import { describe, expect, it } from 'vitest';
import { applyProgress } from '../../src/cli/apply-progress.js';
import { canAnimate, LineLimiter } from '../../src/cli/terminal.js';

const tty = (columns: number | undefined) => ({ isTTY: true, columns }) as unknown as NodeJS.WriteStream;

describe('canAnimate', () => {
  it.each([
    [tty(80), {}, true],
    [tty(0), {}, false],
    [tty(1), {}, false],
    [tty(undefined), {}, false],
    [tty(80), { TERM: 'dumb' }, false],
    [tty(80), { CI: 'true' }, false],
    [{ isTTY: false, columns: 80 } as unknown as NodeJS.WriteStream, {}, false],
  ])('%j %j → %s', (stream, env, expected) => {
    expect(canAnimate(stream, env)).toBe(expected);
  });
});

describe('LineLimiter', () => {
  it('holds back repeats and renumbered repeats within the interval, and counts them', () => {
    let now = 0;
    const limiter = new LineLimiter(30_000, () => now);
    expect(limiter.next('w', 'waiting 1.0s for 2 item(s)')).toBe('waiting 1.0s for 2 item(s)');
    now = 1_000;
    expect(limiter.next('w', 'waiting 2.0s for 2 item(s)')).toBeUndefined();
    now = 2_000;
    expect(limiter.next('w', 'waiting 3.0s for 2 item(s)')).toBeUndefined();
    now = 31_000;
    expect(limiter.next('w', 'waiting 31.0s for 1 item(s)')).toBe(
      'waiting 31.0s for 1 item(s) (+2 update(s))',
    );
  });

  it('lets a different message through at once, and keys are independent', () => {
    let now = 0;
    const limiter = new LineLimiter(30_000, () => now);
    expect(limiter.next('a', 'waiting for CSVs')).toBe('waiting for CSVs');
    now = 10;
    expect(limiter.next('a', 'CSV failed: ImagePullBackOff')).toBe('CSV failed: ImagePullBackOff');
    expect(limiter.next('b', 'waiting for CSVs')).toBe('waiting for CSVs');
  });
});

describe('applyProgress without a terminal', () => {
  it('writes at most one line per interval for a long wait', () => {
    let now = 0;
    const out: string[] = [];
    const stream = { isTTY: false, write: (s: string) => out.push(s) } as unknown as NodeJS.WriteStream;
    const listen = applyProgress({ stream, intervalMs: 30_000, now: () => now });
    listen({ type: 'wait-start', stage: 'subscriptions', what: 'CSVs to succeed', timeoutMs: 300_000 });
    for (let t = 0; t <= 120_000; t += 500) {
      now = t;
      listen({
        type: 'wait-progress',
        stage: 'subscriptions',
        what: 'CSVs to succeed',
        pending: ['Subscription/a/b: UpgradePending'],
        elapsedMs: t,
      });
    }
    const waits = out.filter((l) => l.includes('waiting') && l.includes('item(s)'));
    // 241 progress events over two minutes: one line each 30 s.
    expect(waits.length).toBeGreaterThanOrEqual(4);
    expect(waits.length).toBeLessThanOrEqual(5);
  });
});
