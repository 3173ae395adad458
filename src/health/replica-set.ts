import type { K8sObject } from '../core/object.js';
import { conditionWith, describeCondition, numberAt, specOf, staleGeneration, statusOf } from './fields.js';
import { verdict, type HealthVerdict } from './types.js';

/**
 * Health of an apps/v1 ReplicaSet (kstatus `replicasetConditions`), in this order:
 *
 * - `Progressing` while `status.observedGeneration` is behind;
 * - `Progressing` (ReplicaFailure) when `ReplicaFailure` is True (pods cannot be created, e.g. a
 *   quota): the controller keeps retrying, so the caller's timeout decides;
 * - `Progressing` (NotReady) while fewer than `spec.replicas` pods are labelled, available or
 *   ready (so before the controller writes any status, as in kstatus), or (ScalingDown) while
 *   more pods exist than `spec.replicas`;
 * - `Healthy` (Available) otherwise.
 */
export function replicaSetHealth(obj: K8sObject): HealthVerdict {
  const status = statusOf(obj) ?? {};
  const stale = staleGeneration(obj);
  if (stale) return stale;
  const failure = conditionWith(obj, 'ReplicaFailure', 'True');
  if (failure) return verdict('Progressing', 'ReplicaFailure', describeCondition(failure));

  const desired = numberAt(specOf(obj), 'replicas') ?? 1;
  const counts: [string, number][] = [
    ['labelled', numberAt(status, 'fullyLabeledReplicas') ?? 0],
    ['available', numberAt(status, 'availableReplicas') ?? 0],
    ['ready', numberAt(status, 'readyReplicas') ?? 0],
  ];
  for (const [what, count] of counts) {
    if (count < desired) return verdict('Progressing', 'NotReady', `${count} of ${desired} pods ${what}`);
  }
  const replicas = numberAt(status, 'replicas') ?? 0;
  if (replicas > desired) {
    return verdict('Progressing', 'ScalingDown', `${replicas - desired} pods pending termination`);
  }
  return verdict('Healthy', 'Available', `${replicas} of ${desired} pods available`);
}
