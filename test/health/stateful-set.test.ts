import { describe, expect, it } from 'vitest';
import { statefulSetHealth } from '../../src/health/stateful-set.js';
import { obj } from './helpers.js';

const head = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop, generation: 3}
`;

const cases = [
  // kstatus: InProgress (LessReplicas) until the controller reports pods.
  { name: 'statefulset-no-status', yaml: 'spec: {replicas: 3}', status: 'Progressing', reason: 'RollingOut' },
  {
    name: 'statefulset-generation-outdated',
    yaml: 'spec: {replicas: 3}\nstatus: {observedGeneration: 2, readyReplicas: 3}',
    status: 'Progressing',
    reason: 'ObservedGenerationOutdated',
  },
  {
    name: 'statefulset-not-ready',
    yaml: 'spec: {replicas: 3}\nstatus: {observedGeneration: 3, replicas: 3, currentReplicas: 3, readyReplicas: 2, currentRevision: a, updateRevision: a}',
    status: 'Progressing',
    reason: 'RollingOut',
  },
  {
    name: 'statefulset-on-delete-outdated',
    yaml: `spec: {replicas: 3, updateStrategy: {type: OnDelete}}
status: {observedGeneration: 3, replicas: 3, currentReplicas: 3, readyReplicas: 3, updatedReplicas: 0, currentRevision: a, updateRevision: b}`,
    status: 'Healthy',
    reason: 'Ready',
  },
  {
    name: 'statefulset-partition-pending',
    yaml: `spec: {replicas: 3, updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 1}}}
status: {observedGeneration: 3, replicas: 3, currentReplicas: 3, readyReplicas: 3, updatedReplicas: 1, currentRevision: a, updateRevision: b}`,
    status: 'Progressing',
    reason: 'RollingOut',
  },
  {
    name: 'statefulset-partition-rolled-out',
    yaml: `spec: {replicas: 3, updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 1}}}
status: {observedGeneration: 3, replicas: 3, currentReplicas: 3, readyReplicas: 3, updatedReplicas: 2, currentRevision: a, updateRevision: b}`,
    status: 'Healthy',
    reason: 'PartitionRolledOut',
  },
  {
    name: 'statefulset-revision-rolling',
    yaml: 'spec: {replicas: 3}\nstatus: {observedGeneration: 3, replicas: 3, currentReplicas: 3, readyReplicas: 3, updatedReplicas: 2, currentRevision: a, updateRevision: b}',
    status: 'Progressing',
    reason: 'RollingOut',
  },
  {
    name: 'statefulset-scaling-down',
    yaml: 'spec: {replicas: 3}\nstatus: {observedGeneration: 3, replicas: 5, currentReplicas: 5, readyReplicas: 5, updatedReplicas: 5, currentRevision: b, updateRevision: b}',
    status: 'Progressing',
    reason: 'ScalingDown',
  },
  {
    name: 'statefulset-pods-not-created',
    yaml: 'spec: {replicas: 3}\nstatus: {observedGeneration: 3, replicas: 1, currentReplicas: 1, readyReplicas: 1, currentRevision: b, updateRevision: b}',
    status: 'Progressing',
    reason: 'RollingOut',
  },
  {
    name: 'statefulset-healthy',
    yaml: 'spec: {replicas: 3}\nstatus: {observedGeneration: 3, replicas: 3, currentReplicas: 3, readyReplicas: 3, updatedReplicas: 3, currentRevision: b, updateRevision: b}',
    status: 'Healthy',
    reason: 'RolloutComplete',
  },
] as const;

describe('statefulSetHealth', () => {
  it.each(cases)('$name is $status ($reason)', ({ yaml, status, reason }) => {
    const v = statefulSetHealth(obj(head + yaml));
    expect([v.status, v.reason]).toEqual([status, reason]);
  });

  it('counts the pods a scale-down still has to remove', () => {
    expect(statefulSetHealth(obj(head + cases[7].yaml)).message).toBe(
      'scaling down to 3: 2 pods pending termination',
    );
  });

  it('names the revision a rolling update moves to', () => {
    expect(statefulSetHealth(obj(head + cases[6].yaml)).message).toBe(
      'rolling update in progress: 2 of 3 pods updated to revision b, 3 at the current revision',
    );
  });

  it('names no revision the controller has not reported (never "revision undefined")', () => {
    const rolling = statefulSetHealth(
      obj(`${head}spec: {replicas: 4}\nstatus: {observedGeneration: 3, replicas: 4, readyReplicas: 4}`),
    );
    expect(rolling).toEqual({
      status: 'Progressing',
      reason: 'RollingOut',
      message: 'rolling update in progress: 0 of 4 pods updated, 0 at the current revision',
    });
    const done = statefulSetHealth(obj(`${head}spec: {replicas: 0}\nstatus: {observedGeneration: 3}`));
    expect(done).toEqual({ status: 'Healthy', reason: 'RolloutComplete', message: '0 of 0 pods ready' });
  });
});
