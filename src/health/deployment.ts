import type { K8sObject } from '../core/object.js';
import { conditionWith, describeCondition, numberAt, specOf, staleGeneration, statusOf } from './fields.js';
import { verdict, type HealthVerdict } from './types.js';

/**
 * Health of an `apps/v1` Deployment, with `kubectl rollout status` semantics:
 *
 * - `Progressing` (NotObserved) before the controller writes status (kstatus: InProgress, since
 *   the `Available` condition is missing);
 * - `Progressing` while `status.observedGeneration` is behind, while updated replicas are fewer than
 *   `spec.replicas`, while old replicas still run, or while updated replicas are not yet available;
 * - `Degraded` (ProgressDeadlineExceeded) when the Progressing condition says the rollout passed
 *   `spec.progressDeadlineSeconds`;
 * - `Suspended` (Paused) when `spec.paused` is set;
 * - `Progressing` (NotProgressing) when `Progressing` is False for another reason, and
 *   (NotAvailable) when `Available` is False, even with every replica counted available: the
 *   controller says the rollout is not done (kstatus `deploymentConditions`);
 * - `Healthy` (RolloutComplete) otherwise.
 *
 * It does not judge pods (crash loops surface as replicas that never become available, then as
 * the progress deadline) nor the `ReplicaFailure` condition, which the deadline also catches. Unlike
 * kstatus it does not require `Progressing=True` (NewReplicaSetAvailable): `kubectl rollout status`
 * does not either, and the counts above already say whether the new ReplicaSet is available.
 *
 * @example deploymentHealth(deployment).status // 'Progressing'
 */
export function deploymentHealth(obj: K8sObject): HealthVerdict {
  const status = statusOf(obj);
  if (!status) {
    return verdict('Progressing', 'NotObserved', 'the Deployment controller has not reported yet');
  }
  const stale = staleGeneration(obj);
  if (stale) return stale;

  const progressing = conditionWith(obj, 'Progressing', 'False');
  if (progressing?.reason === 'ProgressDeadlineExceeded') {
    return verdict('Degraded', 'ProgressDeadlineExceeded', describeCondition(progressing));
  }
  if (specOf(obj).paused === true) {
    return verdict('Suspended', 'Paused', 'the rollout is paused (spec.paused)');
  }

  const desired = numberAt(specOf(obj), 'replicas') ?? 1;
  const replicas = numberAt(status, 'replicas') ?? 0;
  const updated = numberAt(status, 'updatedReplicas') ?? 0;
  const available = numberAt(status, 'availableReplicas') ?? 0;
  if (updated < desired) {
    return rolling(`${updated} of ${desired} new replicas have been updated`);
  }
  if (replicas > updated) {
    return rolling(`${replicas - updated} old replicas are pending termination`);
  }
  if (available < updated) {
    return rolling(`${available} of ${updated} updated replicas are available`);
  }
  if (progressing) return verdict('Progressing', 'NotProgressing', describeCondition(progressing));
  const unavailable = conditionWith(obj, 'Available', 'False');
  if (unavailable) return verdict('Progressing', 'NotAvailable', describeCondition(unavailable));
  return verdict('Healthy', 'RolloutComplete', `${available} of ${desired} replicas updated and available`);
}

function rolling(message: string): HealthVerdict {
  return verdict('Progressing', 'RollingOut', `waiting for rollout to finish: ${message}`);
}
