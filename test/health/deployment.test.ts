import { describe, expect, it } from 'vitest';
import { deploymentHealth } from '../../src/health/deployment.js';
import { obj } from './helpers.js';

const head = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop, generation: 2}
`;

const cases = [
  // kstatus: InProgress (no replicas, and no Available condition).
  { name: 'deployment-no-status', yaml: 'spec: {replicas: 2}', status: 'Progressing', reason: 'NotObserved' },
  {
    name: 'deployment-no-status-zero',
    yaml: 'spec: {replicas: 0}',
    status: 'Progressing',
    reason: 'NotObserved',
  },
  {
    name: 'deployment-generation-outdated',
    yaml: 'spec: {replicas: 2}\nstatus: {observedGeneration: 1, replicas: 2, updatedReplicas: 2, availableReplicas: 2}',
    status: 'Progressing',
    reason: 'ObservedGenerationOutdated',
  },
  {
    name: 'deployment-progress-deadline-exceeded',
    yaml: `spec: {replicas: 2}
status:
  observedGeneration: 2
  replicas: 3
  updatedReplicas: 1
  availableReplicas: 2
  conditions:
  - {type: Progressing, status: "False", reason: ProgressDeadlineExceeded, message: 'ReplicaSet "web-7f" has timed out progressing.'}`,
    status: 'Degraded',
    reason: 'ProgressDeadlineExceeded',
  },
  {
    name: 'deployment-paused',
    yaml: 'spec: {replicas: 2, paused: true}\nstatus: {observedGeneration: 2, replicas: 2, updatedReplicas: 0, availableReplicas: 2}',
    status: 'Suspended',
    reason: 'Paused',
  },
  {
    name: 'deployment-updating',
    yaml: 'spec: {replicas: 3}\nstatus: {observedGeneration: 2, replicas: 3, updatedReplicas: 1, availableReplicas: 3}',
    status: 'Progressing',
    reason: 'RollingOut',
  },
  {
    name: 'deployment-old-replicas-terminating',
    yaml: 'spec: {replicas: 2}\nstatus: {observedGeneration: 2, replicas: 3, updatedReplicas: 2, availableReplicas: 2}',
    status: 'Progressing',
    reason: 'RollingOut',
  },
  {
    name: 'deployment-updated-not-available',
    yaml: 'spec: {replicas: 2}\nstatus: {observedGeneration: 2, replicas: 2, updatedReplicas: 2, availableReplicas: 1}',
    status: 'Progressing',
    reason: 'RollingOut',
  },
  {
    name: 'deployment-healthy',
    yaml: `spec: {replicas: 2}
status:
  observedGeneration: 2
  replicas: 2
  updatedReplicas: 2
  availableReplicas: 2
  conditions:
  - {type: Progressing, status: "True", reason: NewReplicaSetAvailable}`,
    status: 'Healthy',
    reason: 'RolloutComplete',
  },
  {
    name: 'deployment-default-one-replica',
    yaml: 'spec: {}\nstatus: {observedGeneration: 2, replicas: 1, updatedReplicas: 1, availableReplicas: 1}',
    status: 'Healthy',
    reason: 'RolloutComplete',
  },
  {
    name: 'deployment-scaled-to-zero',
    yaml: 'spec: {replicas: 0}\nstatus: {observedGeneration: 2}',
    status: 'Healthy',
    reason: 'RolloutComplete',
  },
] as const;

describe('deploymentHealth', () => {
  it.each(cases)('$name is $status ($reason)', ({ yaml, status, reason }) => {
    const v = deploymentHealth(obj(head + yaml));
    expect([v.status, v.reason]).toEqual([status, reason]);
  });

  it('says how far the rollout got', () => {
    const v = deploymentHealth(obj(head + cases[5].yaml));
    expect(v.message).toBe('waiting for rollout to finish: 1 of 3 new replicas have been updated');
  });
});
