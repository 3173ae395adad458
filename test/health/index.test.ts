import { describe, expect, it } from 'vitest';
import { assessHealth, HEALTH_CHECKS, healthCheckFor } from '../../src/health/index.js';
import { genericHealth } from '../../src/health/generic.js';
import { obj } from './helpers.js';

/**
 * One object per dedicated kind, in a state where its check and the generic fallback disagree,
 * so a broken dispatch fails the test.
 */
const dispatch = [
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    body: 'spec: {replicas: 2}\nstatus: {observedGeneration: 1, replicas: 2, updatedReplicas: 1}',
    reason: 'RollingOut',
  },
  {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    body: 'spec: {replicas: 2}\nstatus: {readyReplicas: 1}',
    reason: 'RollingOut',
  },
  {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    body: 'status: {desiredNumberScheduled: 2}',
    reason: 'NotObserved',
  },
  {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    body: 'spec: {replicas: 2}\nstatus: {replicas: 2, fullyLabeledReplicas: 2, availableReplicas: 1}',
    reason: 'NotReady',
  },
  { apiVersion: 'v1', kind: 'Pod', body: 'status: {phase: Succeeded}', reason: 'Completed' },
  {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    body: 'status: {phase: Pending}',
    reason: 'NotBound',
  },
  { apiVersion: 'v1', kind: 'Service', body: 'spec: {type: LoadBalancer}', reason: 'NoClusterIP' },
  { apiVersion: 'batch/v1', kind: 'Job', body: 'status: {active: 1}', reason: 'NotStarted' },
  {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    body: 'status: {acceptedNames: {}}',
    reason: 'NotEstablished',
  },
  { apiVersion: 'v1', kind: 'Namespace', body: 'status: {phase: Active}', reason: 'Active' },
  {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'Subscription',
    body: 'status: {state: AtLatestKnown}',
    reason: 'AtLatestKnown',
  },
  {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'ClusterServiceVersion',
    body: 'status: {phase: Failed}',
    reason: 'Failed',
  },
  {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'InstallPlan',
    body: 'status: {phase: Complete}',
    reason: 'Complete',
  },
  {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'CatalogSource',
    body: 'status: {connectionState: {lastObservedState: READY}}',
    reason: 'Ready',
  },
  {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    body: 'status: {history: []}',
    reason: 'UpdateIncomplete',
  },
  {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterOperator',
    body: 'status: {conditions: []}',
    reason: 'NoStatus',
  },
  {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfigPool',
    body: 'status: {machineCount: 0}',
    reason: 'Empty',
  },
] as const;

const make = (apiVersion: string, kind: string, body: string, meta = '') =>
  obj(`apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata: {name: x${meta}}\n${body}`);

describe('assessHealth', () => {
  it.each(dispatch)('dispatches $kind to its own check', ({ apiVersion, kind, body, reason }) => {
    const o = make(apiVersion, kind, body);
    expect(assessHealth(o).reason).toBe(reason);
    expect(genericHealth(o).reason).not.toBe(reason);
  });

  it('has a test case for every dedicated check', () => {
    expect(
      dispatch
        .map((d) => `${d.kind}${d.apiVersion.includes('/') ? '.' + d.apiVersion.split('/')[0] : ''}`)
        .sort(),
    ).toEqual([...HEALTH_CHECKS.keys()].sort());
  });

  it('falls back to the generic check for other kinds, and by group, not by kind alone', () => {
    expect(assessHealth(make('v1', 'ConfigMap', 'data: {a: b}'))).toEqual({
      status: 'Healthy',
      reason: 'NoStatus',
      message: 'ConfigMap has no status to wait for',
    });
    expect(healthCheckFor('example.com', 'Deployment')).toBe(genericHealth);
    expect(healthCheckFor('', 'Subscription')).toBe(genericHealth);
  });

  it('calls an object being deleted Terminating, whatever its kind and status', () => {
    const meta = `, deletionTimestamp: '2024-02-07T16:00:00Z', finalizers: [kubernetes.io/pvc-protection]`;
    const ok = make('apps/v1', 'Deployment', 'spec: {replicas: 0}\nstatus: {observedGeneration: 1}', meta);
    expect(assessHealth(ok)).toEqual({
      status: 'Progressing',
      reason: 'Terminating',
      message:
        'being deleted since 2024-02-07T16:00:00Z; waiting for finalizers kubernetes.io/pvc-protection',
    });
    const cm = make('v1', 'ConfigMap', 'data: {}', `, deletionTimestamp: '2024-02-07T16:00:00Z'`);
    expect(assessHealth(cm).message).toBe('being deleted since 2024-02-07T16:00:00Z');
  });
});
