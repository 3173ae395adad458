import { describe, expect, it } from 'vitest';
import { transitionAlerts, type Progress } from '../../../src/report/notifications/transitions.js';
import { decide, EMPTY_MEMORY } from '../../../src/report/notifications/decide.js';

const REV1 = `main@sha1:${'1'.repeat(40)}`;
const REV2 = `main@sha1:${'2'.repeat(40)}`;
const cv = { stage: 'cluster-version', message: 'ClusterVersion/version: updating to 4.16.3 (step 1 of 2)' };
const mc = { stage: 'machine-configs', message: 'MachineConfigPool/worker: 1 of 3 updated' };
const cycle = (more: Partial<Parameters<typeof transitionAlerts>[1]> = {}) => ({
  revision: REV1,
  failed: false,
  good: true,
  pending: [],
  ...more,
});
const staging = { name: 'staging' };

/** The alert events of a run of cycles from nothing. */
function events(
  cycles: Parameters<typeof transitionAlerts>[1][],
  env: { name: string; promotedFrom?: string } = staging,
) {
  let progress: Progress | undefined;
  const out: string[] = [];
  for (const c of cycles) {
    const t = transitionAlerts(progress, c, env);
    progress = t.progress;
    out.push(...t.alerts.map((a) => a.event));
  }
  return out;
}

describe('transitionAlerts', () => {
  it('a version step and a pool rollout start when their stage wait appears and finish when it goes', () => {
    expect(
      events([
        cycle(),
        cycle({ pending: [cv] }),
        cycle({ pending: [{ ...cv, message: 'step 2 of 2' }] }),
        cycle({ pending: [mc] }),
        cycle({ pending: [] }),
      ]),
    ).toEqual(['VersionStepStarted', 'VersionStepFinished', 'PoolRolloutStarted', 'PoolRolloutFinished']);
  });

  it('a failed cycle finishes nothing: the waits it could not see stay', () => {
    expect(
      events([cycle({ pending: [cv] }), cycle({ failed: true, good: false }), cycle({ pending: [cv] })]),
    ).toEqual(['VersionStepStarted']);
  });

  it('the started alert says the step', () => {
    const t = transitionAlerts(undefined, cycle({ pending: [cv] }), staging);
    expect(t.alerts[0]).toMatchObject({
      summary: `cluster version update started: ${cv.message}`,
      revision: REV1,
    });
  });

  it('a new revision applied in a promoted environment is a promotion; not the first one an agent sees', () => {
    const prod = { name: 'prod', promotedFrom: 'staging' };
    expect(events([cycle(), cycle(), cycle({ revision: REV2 })], prod)).toEqual(['Promoted']);
    expect(events([cycle(), cycle({ revision: REV2 })], staging)).toEqual([]);
    expect(events([cycle(), cycle({ revision: REV2, good: false, failed: true })], prod)).toEqual([]);
  });

  it('goes through decide with the environment of the context', () => {
    const ctx = {
      context: 'groundwork/prod/eu',
      now: 0,
      dedupWindowMs: 1000,
      environment: { name: 'prod', promotedFrom: 'staging' },
    };
    const ended = (revision: string) => ({
      type: 'cycle-ended' as const,
      revision,
      good: true,
      suspended: false,
      health: { status: 'Healthy', reason: 'Ready' },
      drift: [],
      mode: 'self-heal' as const,
    });
    const first = decide(EMPTY_MEMORY, ended(REV1), ctx);
    const second = decide(first.memory, ended(REV2), ctx);
    expect(first.alerts).toEqual([]);
    expect(second.alerts).toEqual([
      expect.objectContaining({ event: 'Promoted', key: `Promoted/prod/${REV2}` }),
    ]);
  });
});
