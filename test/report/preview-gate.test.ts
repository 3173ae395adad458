import { describe, expect, it } from 'vitest';
import { gateFailures } from '../../src/report/preview/gate.js';

const risks = (r: Partial<Record<'blocker' | 'high' | 'medium' | 'low' | 'info', number>>) => ({
  blocker: 0,
  high: 0,
  medium: 0,
  low: 0,
  info: 0,
  ...r,
});

describe('the preview gate', () => {
  const ok = { status: 'ok' as const, head: {} };
  it.each([
    ['synth-error', risks({ blocker: 2, high: 1 }), []],
    ['blocker', risks({ high: 3, medium: 1 }), []],
    ['blocker', risks({ blocker: 1 }), ['1 blocker risk note(s)']],
    ['warning', risks({ medium: 2, low: 5, info: 1 }), ['2 medium risk note(s)']],
    ['warning', risks({ low: 5, info: 9 }), []],
    ['warning', risks({ blocker: 1, high: 2 }), ['1 blocker risk note(s)', '2 high risk note(s)']],
  ] as const)('--fail-on %s with %j → %j', (failOn, r, expected) => {
    expect(gateFailures({ ...ok, risks: r }, failOn)).toEqual(expected);
  });

  it('fails every level when head does not synthesize', () => {
    for (const failOn of ['synth-error', 'blocker', 'warning'] as const)
      expect(
        gateFailures(
          { status: 'head-failed', risks: risks({}), head: { failure: { code: 'CompileFailed' } as never } },
          failOn,
        ),
      ).toEqual(['head does not synthesize (CompileFailed)']);
  });
});
