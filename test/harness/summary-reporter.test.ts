import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestRunEndReason } from 'vitest/node';
import SummaryReporter from './summary-reporter.js';

/** The last line `.ci/run` reads: never `0 failed` for a run that failed, was stopped or ran nothing. */
describe("the summary's last line", () => {
  afterEach(() => vi.restoreAllMocks());

  const lastLine = (reason: TestRunEndReason, unhandled: unknown[] = []) => {
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
    new SummaryReporter().onTestRunEnd([], unhandled as never, reason);
    return out.join('').trimEnd().split('\n').at(-1);
  };

  it.each([
    ['a run that failed with nothing counted (its global setup threw)', 'failed'],
    ['a run stopped before any test', 'interrupted'],
    ['a run of no test at all', 'passed'],
  ] as const)('%s: 0 passed, 1 failed', (_name, reason) => {
    expect(lastLine(reason)).toBe('0 passed, 1 failed');
  });

  it('counts each unhandled error once', () => {
    expect(lastLine('failed', [new Error('a'), new Error('b')])).toBe('0 passed, 2 failed');
  });
});
