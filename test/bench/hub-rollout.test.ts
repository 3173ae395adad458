import { describe, expect, it } from 'vitest';
import { rolloutLine } from '../../bench/hub-rollout.js';
import type { FleetRolloutObject } from '../../src/hub/rollout-schema.js';

const rollout = (members: { name: string; wave: number; state: 'Succeeded' | 'Failed' | 'Held' }[]) =>
  ({
    name: 'prod-abc',
    namespace: 'groundwork-hub',
    spec: {
      environment: 'prod',
      ref: 'prod',
      revision: 'a'.repeat(40),
      waves: [{ name: 'canary' }, { name: 'ten', percent: 10 }, { name: 'rest', percent: 100 }],
      maxUnavailable: '20%',
      maxFailures: '10%',
      bakeSeconds: 0,
      progressDeadlineSeconds: 600,
    },
    status: { phase: 'Completed', members },
  }) as unknown as FleetRolloutObject;

describe('bench hub: the rollout line', () => {
  it("times each wave's release from the last report that completed the wave before it", () => {
    const r = rollout([
      { name: 'c1', wave: 0, state: 'Succeeded' },
      { name: 't1', wave: 1, state: 'Succeeded' },
      { name: 't2', wave: 1, state: 'Failed' },
      { name: 'r1', wave: 2, state: 'Succeeded' },
      { name: 'r2', wave: 2, state: 'Held' },
    ]);
    const released = new Map([
      ['c1', 0],
      ['t1', 1500],
      ['t2', 1700],
      ['r1', 9300],
    ]);
    const done = new Map([
      ['c1', [400, 1000]], // drift healed: its second report passed the gate
      ['t1', [8000]],
      ['t2', [9000, 12000]], // a report after the next release does not count
      ['r1', [20000]],
    ]);
    const line = rolloutLine(r, 42.04, released, done);
    expect(line).toContain('Completed after **42.0 s** over 5 prod members');
    expect(line).toContain('waves canary 1, ten 2, rest 2');
    expect(line).toContain('members Succeeded 3, Failed 1, Held 1');
    // ten: released 1500, the canary's report seen at 1000; rest: 9300 after t2's report at 9000.
    expect(line).toContain('**ten 500 ms, rest 300 ms**');
  });

  it('says n/a for a wave that was never released (a halt)', () => {
    const r = rollout([
      { name: 'c1', wave: 0, state: 'Failed' },
      { name: 't1', wave: 1, state: 'Held' },
    ]);
    expect(rolloutLine(r, 5, new Map([['c1', 0]]), new Map([['c1', [10]]]))).toContain(
      '**ten n/a, rest n/a**',
    );
  });
});
