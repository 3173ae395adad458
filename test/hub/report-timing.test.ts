import { describe, expect, it } from 'vitest';
import { nextReportAt } from '../../src/hub/report-timing.js';

const pacing = { debounceMs: 2000, minIntervalMs: 10_000 };

describe('nextReportAt', () => {
  it('debounces the first report', () => {
    expect(nextReportAt({ changedAtMs: 5000, readyFlipped: false, pacing })).toBe(7000);
  });

  it('waits out the minimum interval after the last write', () => {
    expect(nextReportAt({ changedAtMs: 5000, lastWriteMs: 4000, readyFlipped: false, pacing })).toBe(14_000);
    // Long after the last write: the debounce alone.
    expect(nextReportAt({ changedAtMs: 50_000, lastWriteMs: 4000, readyFlipped: false, pacing })).toBe(
      52_000,
    );
  });

  it('does not hold back a Ready flip for the interval', () => {
    expect(nextReportAt({ changedAtMs: 5000, lastWriteMs: 4000, readyFlipped: true, pacing })).toBe(7000);
  });

  it('does not hold back a newly applied revision for the interval (what a rollout wave waits for)', () => {
    expect(
      nextReportAt({ changedAtMs: 5000, lastWriteMs: 4000, readyFlipped: false, appliedMoved: true, pacing }),
    ).toBe(7000);
    expect(
      nextReportAt({
        changedAtMs: 5000,
        lastWriteMs: 4000,
        readyFlipped: false,
        appliedMoved: false,
        pacing,
      }),
    ).toBe(14_000);
  });

  it('uses the default pacing when none is given', () => {
    expect(nextReportAt({ changedAtMs: 0, lastWriteMs: 0, readyFlipped: false })).toBe(10_000);
  });
});
