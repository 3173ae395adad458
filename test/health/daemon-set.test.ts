import { describe, expect, it } from 'vitest';
import { daemonSetHealth } from '../../src/health/daemon-set.js';
import { obj } from './helpers.js';

const head = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: ops, generation: 4}
`;

const cases = [
  // kstatus: InProgress (checkGenerationSet: no observedGeneration).
  { name: 'daemonset-no-status', yaml: 'spec: {}', status: 'Progressing', reason: 'NotObserved' },
  {
    name: 'daemonset-generation-outdated',
    yaml: 'status: {observedGeneration: 3, desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 3, updatedNumberScheduled: 3, numberAvailable: 3}',
    status: 'Progressing',
    reason: 'ObservedGenerationOutdated',
  },
  {
    name: 'daemonset-updating',
    yaml: 'status: {observedGeneration: 4, desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 3, updatedNumberScheduled: 1, numberAvailable: 3}',
    status: 'Progressing',
    reason: 'RollingOut',
  },
  {
    name: 'daemonset-unavailable',
    yaml: 'status: {observedGeneration: 4, desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 3, updatedNumberScheduled: 3, numberAvailable: 2}',
    status: 'Progressing',
    reason: 'RollingOut',
  },
  {
    name: 'daemonset-on-delete-outdated',
    yaml: `spec: {updateStrategy: {type: OnDelete}}
status: {observedGeneration: 4, desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 3, updatedNumberScheduled: 0, numberAvailable: 3}`,
    status: 'Healthy',
    reason: 'RolloutComplete',
  },
  {
    name: 'daemonset-not-observed',
    yaml: 'status: {desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 3, updatedNumberScheduled: 3, numberAvailable: 3}',
    status: 'Progressing',
    reason: 'NotObserved',
  },
  {
    name: 'daemonset-no-desired-count',
    yaml: 'status: {observedGeneration: 4, currentNumberScheduled: 1}',
    status: 'Progressing',
    reason: 'NotObserved',
  },
  {
    name: 'daemonset-not-ready',
    yaml: 'status: {observedGeneration: 4, desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 3}',
    status: 'Progressing',
    reason: 'RollingOut',
  },
  {
    name: 'daemonset-healthy',
    yaml: 'status: {observedGeneration: 4, desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 3, updatedNumberScheduled: 3, numberAvailable: 3}',
    status: 'Healthy',
    reason: 'RolloutComplete',
  },
] as const;

describe('daemonSetHealth', () => {
  it.each(cases)('$name is $status ($reason)', ({ yaml, status, reason }) => {
    const v = daemonSetHealth(obj(head + yaml));
    expect([v.status, v.reason]).toEqual([status, reason]);
  });

  it('says which fields the controller has not set yet', () => {
    expect(daemonSetHealth(obj(head + 'status: {currentNumberScheduled: 1}')).message).toBe(
      'waiting for the DaemonSet controller to act on it: status.observedGeneration, status.desiredNumberScheduled not set',
    );
  });

  it('counts updated pods first, then available ones', () => {
    expect(daemonSetHealth(obj(head + cases[2].yaml)).message).toBe('1 of 3 updated pods scheduled');
    expect(daemonSetHealth(obj(head + cases[3].yaml)).message).toBe('2 of 3 pods available');
  });
});
