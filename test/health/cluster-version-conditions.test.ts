import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/core/object.js';
import { clusterVersionHealth } from '../../src/health/cluster-version.js';
import { clusterState, type FixtureObject } from '../cluster-version/fixtures.js';

/**
 * ClusterVersion health against the real condition shapes: each row starts from a real 4.14 dump
 * (openshift/oc status examples) and, where the dump lacks the condition, adds it as the CVO writes
 * it (type, status, reason and message wording from cluster-version-operator `pkg/cvo`).
 */
function withCondition(cv: FixtureObject, condition: Record<string, string>): FixtureObject {
  const conditions = (cv.status.conditions as { type: string }[]).filter((c) => c.type !== condition.type);
  cv.status.conditions = [...conditions, { lastTransitionTime: '2023-11-03T17:30:00Z', ...condition }];
  return cv;
}

const idle = () => clusterState('not-upgrading').clusterVersion;

const rows: { name: string; cv: () => FixtureObject; status: string; reason: string; message?: string }[] = [
  { name: 'idle 4.14.1, updates retrieved', cv: idle, status: 'Healthy', reason: 'AtDesiredVersion' },
  {
    name: 'an update paused on the worker pool, still Progressing',
    cv: () => clusterState('4.14.1-paused-worker-pool').clusterVersion,
    status: 'Progressing',
    reason: 'Updating',
  },
  {
    name: 'a degraded update: Failing=True',
    cv: () => clusterState('4.14.1-degraded').clusterVersion,
    status: 'Degraded',
    reason: 'Failing',
    message: 'ClusterOperatorsDegraded: Cluster operators etcd, kube-apiserver are degraded',
  },
  {
    name: 'Invalid=True (a version-only desiredUpdate not in availableUpdates)',
    cv: () =>
      withCondition(idle(), {
        type: 'Invalid',
        status: 'True',
        reason: 'InvalidClusterVersion',
        message:
          'The cluster version is invalid: spec.desiredUpdate.version: Invalid value: "4.14.99": when image is empty the update must be an available update',
      }),
    status: 'Degraded',
    reason: 'Invalid',
  },
  {
    name: 'ReleaseAccepted=False (signature not verified)',
    cv: () =>
      withCondition(idle(), {
        type: 'ReleaseAccepted',
        status: 'False',
        reason: 'RetrievePayload',
        message:
          'Retrieving payload failed version="4.14.2" image="quay.io/openshift-release-dev/ocp-release@sha256:0000" failure=The update cannot be verified',
      }),
    status: 'Degraded',
    reason: 'ReleaseNotAccepted',
  },
  {
    name: 'RetrievedUpdates=False (version not in the channel) keeps the running release Healthy and says so',
    cv: () =>
      withCondition(idle(), {
        type: 'RetrievedUpdates',
        status: 'False',
        reason: 'VersionNotFound',
        message:
          'Unable to retrieve available updates: currently reconciling cluster version 4.14.1 not found in the "candidate-4.14" channel',
      }),
    status: 'Healthy',
    reason: 'AtDesiredVersion',
    message: 'updates not retrieved: VersionNotFound: Unable to retrieve available updates',
  },
  {
    name: 'RetrievedUpdates=False (no channel)',
    cv: () =>
      withCondition(idle(), {
        type: 'RetrievedUpdates',
        status: 'False',
        reason: 'NoChannel',
        message: 'The update channel has not been configured.',
      }),
    status: 'Healthy',
    reason: 'AtDesiredVersion',
    message: 'NoChannel: The update channel has not been configured.',
  },
];

describe('clusterVersionHealth on real condition shapes', () => {
  it.each(rows)('$name', ({ cv, status, reason, message }) => {
    const v = clusterVersionHealth(cv() as K8sObject);
    expect({ status: v.status, reason: v.reason }).toEqual({ status, reason });
    if (message) expect(v.message).toContain(message);
  });
});
