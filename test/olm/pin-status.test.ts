import { describe, expect, it } from 'vitest';
import { decideApprovals } from '../../src/olm/approval.js';
import { toInstallPlan, toSubscription } from '../../src/olm/olm-objects.js';
import { operatorPinStatus } from '../../src/olm/pin-status.js';

// The published view of pinned operators, from the approval decisions of one pass.

const sub = (name: string, installed?: string, current?: string) =>
  toSubscription({
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'Subscription',
    metadata: { name, namespace: 'ops' },
    spec: { name, channel: 'stable', installPlanApproval: 'Manual', startingCSV: `${name}.v0.2.0` },
    status: {
      ...(installed ? { installedCSV: installed } : {}),
      ...(current ? { currentCSV: current } : {}),
    },
  });
const plan = (name: string, csvs: string[], phase: string, approved = false) =>
  toInstallPlan({
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'InstallPlan',
    metadata: { name, namespace: 'ops' },
    spec: { approved, approval: 'Manual', clusterServiceVersionNames: csvs },
    status: { phase },
  });

describe('operatorPinStatus', () => {
  const subscriptions = [sub('foo', 'foo.v0.1.0', 'foo.v0.3.0'), sub('bar', 'bar.v1.0.0', 'bar.v1.1.0')];
  const report = decideApprovals({
    namespace: 'ops',
    subscriptions,
    installPlans: [
      plan('install-a', ['foo.v0.1.0'], 'Complete', true),
      plan('install-b', ['foo.v0.2.0'], 'RequiresApproval'),
      plan('install-c', ['foo.v0.3.0'], 'RequiresApproval'),
      plan('install-d', ['bar.v1.1.0'], 'RequiresApproval'),
    ],
    wanted: new Map([['foo', new Set(['foo.v0.2.0'])]]),
  });

  it('gives each pin its installed CSV and its open plans with the decision and why, completed ones left out', () => {
    const pins = operatorPinStatus(
      [{ sub: 'foo', namespace: 'ops', package: 'foo', pin: 'foo.v0.2.0' }],
      subscriptions,
      [report],
    );
    expect(pins).toEqual([
      {
        subscription: 'ops/foo',
        package: 'foo',
        pin: 'foo.v0.2.0',
        installed: 'foo.v0.1.0',
        installPlans: [
          {
            name: 'install-b',
            decision: 'approve',
            reason: 'AllWanted',
            message: expect.stringContaining('path to the pin'),
          },
          {
            name: 'install-c',
            decision: 'wait',
            reason: 'BeyondPin',
            message: expect.stringContaining('past the pin'),
          },
        ],
      },
    ]);
  });

  it('names a pin whose Subscription is not in the cluster yet without an installed CSV', () => {
    const pins = operatorPinStatus(
      [{ sub: 'new', namespace: 'ops', package: 'new', pin: 'new.v1.0.0' }],
      [],
      [],
    );
    expect(pins).toEqual([{ subscription: 'ops/new', package: 'new', pin: 'new.v1.0.0', installPlans: [] }]);
  });
});
