import { describe, expect, it } from 'vitest';
import { cliTable, median, ratio, type CliRow, type Sample } from '../../bench/cli-table.js';

const runs = (...walls: number[]): Sample[] => walls.map((wallMs) => ({ wallMs, cpuMs: wallMs / 2 }));

describe('bench cli table', () => {
  it.each([
    [[], Number.NaN],
    [[3], 3],
    [[5, 1, 3], 3],
    [[4, 1, 3, 2], 2],
  ])('median of %j is %d', (values, expected) => {
    expect(median(values)).toEqual(expected);
  });

  it('ratio: two decimals, and a dash where there is nothing to divide by', () => {
    expect(ratio(300, 100)).toBe('3.00×');
    expect(ratio(100, 0)).toBe('-');
    expect(ratio(Number.NaN, 100)).toBe('-');
  });

  const plan: CliRow = {
    label: 'plan',
    groundwork: 'groundwork plan --dir <repo>',
    kubectl: 'kubectl diff --server-side -f <file>',
    dist: runs(500, 300, 350),
    baseline: runs(60, 50, 55),
    targetRatio: 2,
  };

  it('a row per command: medians, their ratios, the target ratio and whether the CPU ratio meets it', () => {
    const help: CliRow = {
      ...plan,
      label: 'help',
      dist: runs(90, 100, 95),
      baseline: runs(40, 50, 45),
      targetRatio: 2.5,
    };
    const text = cliTable([plan, help], { reps: 3, floor: runs(40, 45, 50), load: [12.5, 9.25] });
    expect(text).toContain(
      '| plan: `groundwork plan --dir <repo>` vs `kubectl diff --server-side -f <file>` | 0.35 s | 0.06 s | 6.36× | 175 ms / 28 ms | 6.36× | ≤ 2× | no |',
    );
    expect(text).toContain('| 0.10 s | 0.04 s | 2.11× | 48 ms / 23 ms | 2.11× | ≤ 2.5× | yes |');
    expect(text).toContain("Node's own start (`node -e 0`) in this run: 0.04 s, 23 ms of CPU");
    expect(text).toContain('Load average at the start and the end: 12.5, 9.3.');
    expect(text).not.toContain('from the sources');
  });

  it('says yes at the target ratio exactly, judged by CPU, and adds the sources column when measured', () => {
    const even = { ...plan, dist: runs(110, 100, 120), source: runs(2000, 2100, 1900) };
    const text = cliTable([even], { reps: 3, floor: runs(40), load: [1, 1] });
    expect(text).toContain('| 0.11 s | 0.06 s | 2.00× | 55 ms / 28 ms | 2.00× | ≤ 2× | yes |');
    const slowWall = { ...plan, dist: [{ wallMs: 900, cpuMs: 50 }], baseline: [{ wallMs: 100, cpuMs: 30 }] };
    expect(cliTable([slowWall], { reps: 1, floor: runs(40), load: [1, 1] })).toContain(
      '| 0.90 s | 0.10 s | 9.00× | 50 ms / 30 ms | 1.67× | ≤ 2× | yes |',
    );
    expect(text).toContain('from the sources (tsx) |');
    expect(text).toMatch(/\| 2\.00 s \|$/m);
  });
});
