import { describe, expect, it } from 'vitest';
import { PollSchedule } from '../../src/source/schedule.js';

/** A random source that returns the given values in turn. */
const sequence = (...values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length]!;
};

describe('PollSchedule.next', () => {
  it('spreads the interval by ± jitter', () => {
    const s = new PollSchedule({ intervalMs: 60_000, jitter: 0.1, random: sequence(0, 0.5, 0.999999) });
    expect(s.next()).toBe(54_000);
    expect(s.next()).toBe(60_000);
    expect(s.next()).toBe(66_000);
  });

  it('is exactly the interval without jitter, and defaults to ±10 %', () => {
    expect(new PollSchedule({ intervalMs: 5000, jitter: 0, random: Math.random }).next()).toBe(5000);
    const d = new PollSchedule({ intervalMs: 10_000, random: sequence(0) });
    expect(d.next()).toBe(9000);
  });

  it('stays within bounds for any random value', () => {
    const s = new PollSchedule({ intervalMs: 1000, jitter: 0.25 });
    for (let i = 0; i < 1000; i++) {
      const delay = s.next();
      expect(delay).toBeGreaterThanOrEqual(750);
      expect(delay).toBeLessThanOrEqual(1250);
    }
  });
});

describe('PollSchedule.backoff', () => {
  const s = new PollSchedule({ intervalMs: 60_000, jitter: 0.2, random: sequence(0) });

  it('doubles from one second per consecutive failure', () => {
    expect([1, 2, 3, 4, 5].map((n) => s.backoff(n))).toEqual([1000, 2000, 4000, 8000, 16_000]);
  });

  it('is capped at five minutes, even after very many failures', () => {
    expect(s.backoff(9)).toBe(256_000);
    expect(s.backoff(10)).toBe(300_000);
    expect(s.backoff(5000)).toBe(300_000);
  });

  it('only shortens by the jitter, so the cap holds', () => {
    const j = new PollSchedule({ intervalMs: 60_000, jitter: 0.2, random: sequence(0.5, 0.999999) });
    expect(j.backoff(20)).toBe(270_000);
    expect(j.backoff(20)).toBe(240_000);
  });

  it('counts zero or negative failures as one', () => {
    expect(s.backoff(0)).toBe(1000);
    expect(s.backoff(-3)).toBe(1000);
  });

  it('takes its own base and cap', () => {
    const c = new PollSchedule({ intervalMs: 1000, jitter: 0, backoffBaseMs: 500, backoffMaxMs: 3000 });
    expect([1, 2, 3, 4].map((n) => c.backoff(n))).toEqual([500, 1000, 2000, 3000]);
  });
});

describe('PollSchedule options', () => {
  const bad: [string, ConstructorParameters<typeof PollSchedule>[0]][] = [
    ['a zero interval', { intervalMs: 0 }],
    ['a jitter of 1', { intervalMs: 1000, jitter: 1 }],
    ['a negative jitter', { intervalMs: 1000, jitter: -0.1 }],
    ['a cap below the base', { intervalMs: 1000, backoffBaseMs: 2000, backoffMaxMs: 1000 }],
    ['a NaN base', { intervalMs: 1000, backoffBaseMs: Number.NaN }],
  ];
  for (const [name, opts] of bad) {
    it(`refuses ${name}`, () => expect(() => new PollSchedule(opts)).toThrow(RangeError));
  }
});
