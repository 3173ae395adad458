import { describe, expect, it } from 'vitest';
import { type SoakSample, slopePerHour, soakReport } from '../../bench/soak-stats.js';

const line = (minutes: number, heapAt: (m: number) => number): SoakSample[] =>
  Array.from({ length: minutes }, (_, i) => ({ minute: i + 1, rssMb: 200 + i, heapMb: heapAt(i + 1) }));

describe('slopePerHour', () => {
  it('is the least-squares slope per hour of the samples from the given minute', () => {
    // 0.5 MB a minute after minute 5; a steep warm-up before it that must not count.
    const samples = line(30, (m) => (m < 5 ? 10 * m : 50 + 0.5 * (m - 5)));
    expect(slopePerHour(samples, (s) => s.heapMb)).toBeCloseTo(30, 10);
    expect(slopePerHour(samples, (s) => s.heapMb, 0)).toBeGreaterThan(30);
  });

  it('fits through noise: a flat series with alternating noise has slope 0', () => {
    const samples = line(20, (m) => 80 + (m % 2 === 0 ? 1 : -1)).slice(4, 20 - 1);
    expect(slopePerHour(samples, (s) => s.heapMb)).toBeCloseTo(0, 10);
  });

  it('is undefined with fewer than two samples after the warm-up', () => {
    expect(
      slopePerHour(
        line(5, () => 1),
        (s) => s.heapMb,
      ),
    ).toBeUndefined();
    expect(
      slopePerHour(
        line(6, () => 1),
        (s) => s.heapMb,
      ),
    ).toBe(0);
  });
});

describe('soakReport', () => {
  it('prints a line per minute, both slopes and what was lost', () => {
    const text = soakReport(
      line(10, (m) => 60 + m / 60),
      {
        editsRestored: 119,
        editsTotal: 120,
        slowestRestoreMs: 1500,
        commitsApplied: 9,
        commitsTotal: 9,
        restarts: 1,
      },
    );
    expect(text.split('\n').filter((l) => /^\| \d+ \|/.test(l))).toHaveLength(10);
    expect(text).toContain('| 10 | 209.0 MB | 60.2 MB |');
    expect(text).toContain('RSS +60.00 MB/h, heap +1.00 MB/h');
    expect(text).toContain('Edits restored: 119/120 (1 lost), slowest 1.50 s');
    expect(text).toContain('Commits applied: 9/9. Apiserver restarts: 1.');
  });

  it('says when the run is too short for a slope', () => {
    const counts = {
      editsRestored: 0,
      editsTotal: 0,
      slowestRestoreMs: 0,
      commitsApplied: 0,
      commitsTotal: 0,
      restarts: 0,
    };
    expect(
      soakReport(
        line(3, () => 1),
        counts,
      ),
    ).toContain('RSS n/a (too short), heap n/a (too short)');
  });
});
