import { describe, expect, it } from 'vitest';
import {
  runPreconditions,
  summarize,
  upgradeableFromOperators,
  type PreconditionInput,
} from '../../../src/dev/simulators/cvo-preconditions.js';
import { resolveDesiredUpdate } from '../../../src/dev/simulators/cvo-request.js';
import { retrieveUpdates } from '../../../src/dev/simulators/cvo-updates.js';
import { fixtureUpdateService } from './helpers.js';
import { fixtureObject } from '../../harness/fixtures.js';

const cv = (over: Partial<PreconditionInput> = {}): PreconditionInput => ({
  channel: 'stable-4.15',
  desired: { version: '4.14.10', image: 'img@sha256:a' },
  history: [{ version: '4.14.10', image: 'img@sha256:a', state: 'Completed' }],
  conditions: [{ type: 'RetrievedUpdates', status: 'True', lastTransitionTime: 't' }],
  availableUpdates: [
    { version: '4.15.2', image: 'img@sha256:b' },
    { version: '4.14.11', image: 'img@sha256:c' },
  ],
  conditionalUpdates: [],
  ...over,
});
const blocked = {
  type: 'Upgradeable',
  status: 'False',
  reason: 'AdminAckRequired',
  message: 'ack it',
  lastTransitionTime: 't',
};

describe('CVO preconditions', () => {
  it('blocks a minor update while Upgradeable=False, not a patch update', () => {
    const failing = cv({ conditions: [...cv().conditions, blocked] });
    expect(summarize(runPreconditions(failing, '4.15.2'), false)).toEqual({
      block: true,
      message: 'Precondition "ClusterVersionUpgradeable" failed because of "AdminAckRequired": ack it',
    });
    expect(runPreconditions(failing, '4.14.11')).toEqual([]);
  });

  it('lets force through, saying so', () => {
    const failing = cv({ conditions: [...cv().conditions, blocked] });
    expect(summarize(runPreconditions(failing, '4.15.2'), true)).toEqual({
      block: false,
      message:
        'Forced through blocking failures: Precondition "ClusterVersionUpgradeable" failed because of "AdminAckRequired": ack it',
    });
  });

  it('refuses giant hops and rollbacks across minors; warns about unrecommended targets', () => {
    const failures = runPreconditions(cv(), '4.16.0');
    expect(failures.map((f) => [f.name, f.reason, f.nonBlocking])).toEqual([
      ['ClusterVersionGiantHop', 'MultipleMinorVersionsUpdate', false],
      ['ClusterVersionRecommendedUpdate', 'UnknownUpdate', true],
    ]);
    expect(summarize(failures, false)?.message).toMatch(
      /^Multiple precondition checks failed:\n\* Precondition "ClusterVersionGiantHop"/,
    );
    expect(runPreconditions(cv(), '4.13.0')[0]).toMatchObject({
      name: 'ClusterVersionRollback',
      reason: 'LowDesiredVersion',
    });
  });

  it('aggregates ClusterOperators into the ClusterVersion Upgradeable condition like the 4.14 dump', () => {
    const real = fixtureObject('cluster-state/4.14.1-degraded/cv.yaml');
    const want = (
      real.status as { conditions: { type: string; reason: string; message: string }[] }
    ).conditions.find((c) => c.type === 'Upgradeable');
    const got = upgradeableFromOperators([
      {
        name: 'machine-config',
        conditions: [
          {
            type: 'Upgradeable',
            status: 'False',
            reason: 'PoolUpdating',
            message:
              'One or more machine config pools are updating, please see `oc get mcp` for further details',
          },
        ],
      },
      {
        name: 'control-plane-machine-set',
        conditions: [
          {
            type: 'Upgradeable',
            status: 'False',
            reason: 'AsExpected',
            message: 'cluster operator is not upgradable',
          },
        ],
      },
      { name: 'etcd', conditions: [{ type: 'Upgradeable', status: 'True' }] },
    ]);
    expect(got).toEqual({ status: 'False', reason: want?.reason, message: want?.message });
  });
});

describe('desiredUpdate', () => {
  const status = { availableUpdates: cv().availableUpdates, history: cv().history };
  it.each([
    [{ version: '4.15.2' }, { kind: 'release', image: 'img@sha256:b', version: '4.15.2', force: false }],
    [
      { image: 'other@sha256:x', force: true },
      { kind: 'release', image: 'other@sha256:x', version: undefined, force: true },
    ],
    [
      { version: '4.15.9', force: true },
      {
        kind: 'invalid',
        message:
          'The cluster version is invalid: spec.desiredUpdate.version: Invalid value: "4.15.9": when image is empty the update must be an available update',
      },
    ],
    [{ version: '4.14.10' }, { kind: 'none' }],
  ])('%j', (desired, want) => {
    expect(resolveDesiredUpdate(desired, status)).toEqual(want);
  });
});

describe('retrieveUpdates', () => {
  const graph = fixtureUpdateService('stable-4.8.json');
  const opts = { riskApplies: () => false, previous: [], now: 't' };
  it('refuses without a channel or outside it, with the CVO reasons', () => {
    expect(retrieveUpdates(graph, undefined, '4.7.0', opts).retrieved).toMatchObject({ reason: 'NoChannel' });
    expect(retrieveUpdates(graph, 'stable-4.8', '4.1.0', opts).retrieved).toEqual({
      status: 'False',
      reason: 'VersionNotFound',
      message: 'currently reconciling cluster version 4.1.0 not found in the "stable-4.8" channel',
    });
  });
  it('says why a conditional update is not recommended when its risk applies', () => {
    const found = retrieveUpdates(graph, 'stable-4.8', '4.7.0', { ...opts, riskApplies: () => true });
    expect(found.conditionalUpdates[0]?.conditions[0]).toEqual({
      type: 'Recommended',
      status: 'False',
      reason: 'VSphereNodeNameChanges',
      message:
        'vSphere clusters leveraging the vSphere cloud provider may lose node names which can have serious impacts on the stability of the control plane and workloads. https://bugzilla.redhat.com/show_bug.cgi?id=1942207#c3',
      lastTransitionTime: 't',
    });
    expect(found.availableUpdates?.some((u) => u.version === '4.7.4') ?? false).toBe(false);
  });
});
