import { describe, expect, it } from 'vitest';
import { convergence, type ConvergenceView } from '../../../src/cli/quickstart/converged.js';
import { readClusterVersion } from '../../../src/cluster-version/cluster-state.js';
import { nextStatus, type SyncStatus } from '../../../src/report/sync-status.js';

const at = new Date('2026-01-01T00:00:00Z');
const REV = 'main@sha1:1111111111111111111111111111111111111111';
const OLD = 'main@sha1:0000000000000000000000000000000000000000';

const reconciled = (revision: string, health: 'Healthy' | 'Progressing'): SyncStatus =>
  nextStatus(undefined, {
    type: 'reconciled',
    at,
    generation: 1,
    revision,
    applied: true,
    inventory: { objects: 3 },
    health: { status: health, reason: health === 'Healthy' ? 'AllHealthy' : 'Rollout' },
  });
const stalled = nextStatus(undefined, {
  type: 'failed',
  at,
  generation: 1,
  reason: 'ApplyFailed',
  message: 'boom',
  revision: REV,
});
const cv = (target: string | undefined, history: { version: string; state: string }[]) => ({
  target,
  state: readClusterVersion({
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec: { clusterID: 'c' },
    status: {
      history: history.map((h) => ({
        ...h,
        image: `quay.io/x:${h.version}`,
        verified: false,
        startedTime: '2026-01-01T00:00:00Z',
      })),
    },
  }),
});

describe('convergence: when the quick start calls the platform converged', () => {
  const cases: [string, Omit<ConvergenceView, 'revision'>, boolean, RegExp?][] = [
    ['no status yet', { status: undefined, clusterVersion: undefined }, false, /first reconcile/],
    ['Ready at an older revision', { status: reconciled(OLD, 'Healthy'), clusterVersion: undefined }, false],
    [
      'applied, objects still progressing',
      { status: reconciled(REV, 'Progressing'), clusterVersion: undefined },
      false,
      /WaitingForHealth/,
    ],
    [
      'stalled: keeps waiting, never fails',
      { status: stalled, clusterVersion: undefined },
      false,
      /ApplyFailed/,
    ],
    ['Ready, no ClusterVersion', { status: reconciled(REV, 'Healthy'), clusterVersion: undefined }, true],
    [
      'Ready, ClusterVersion without a target',
      {
        status: reconciled(REV, 'Healthy'),
        clusterVersion: cv(undefined, [{ version: '4.14.38', state: 'Completed' }]),
      },
      true,
    ],
    [
      'Ready between two update steps',
      {
        status: reconciled(REV, 'Healthy'),
        clusterVersion: cv('4.16.20', [
          { version: '4.15.30', state: 'Completed' },
          { version: '4.14.38', state: 'Completed' },
        ]),
      },
      false,
      /Completed 4\.15\.30, target 4\.16\.20/,
    ],
    [
      'Ready, the target update still partial',
      {
        status: reconciled(REV, 'Healthy'),
        clusterVersion: cv('4.16.20', [{ version: '4.16.20', state: 'Partial' }]),
      },
      false,
    ],
    [
      'Ready at the target',
      {
        status: reconciled(REV, 'Healthy'),
        clusterVersion: cv('4.16.20', [
          { version: '4.16.20', state: 'Completed' },
          { version: '4.15.30', state: 'Completed' },
        ]),
      },
      true,
    ],
  ];
  it.each(cases)('%s', (_name, view, done, pending) => {
    const check = convergence({ revision: REV, ...view });
    expect(check.done).toBe(done);
    expect(check.failed).toBeUndefined();
    if (pending) expect(check.pending.join('; ')).toMatch(pending);
    if (!done) expect(check.pending.length).toBeGreaterThan(0);
  });
});
