import type { K8sObject } from '../core/object.js';
import { numberAt, objectAt, specOf, staleGeneration, statusOf, stringAt } from './fields.js';
import { verdict, type HealthVerdict } from './types.js';

/**
 * Health of an `apps/v1` StatefulSet, with `kubectl rollout status` semantics:
 *
 * - `Progressing` while `status.observedGeneration` is behind, while fewer than `spec.replicas`
 *   pods exist or are ready (so before the controller writes any status, as in kstatus), while more pods exist than `spec.replicas` (scaling down: the extra
 *   pods are still terminating), while a partitioned rolling update has not updated the pods at or
 *   above the partition, or while fewer than `spec.replicas` pods run `currentRevision` or
 *   `currentRevision` has not caught up with `updateRevision` (kstatus `stsConditions`);
 * - `Healthy` otherwise. With the `OnDelete` strategy only readiness is judged: the controller
 *   never replaces pods by itself, so an outdated revision is not a rollout in progress.
 *
 * It never returns `Degraded`: StatefulSets have no progress deadline, so a stuck rollout stays
 * `Progressing` and the caller's timeout decides.
 */
export function statefulSetHealth(obj: K8sObject): HealthVerdict {
  const status = statusOf(obj) ?? {};
  const stale = staleGeneration(obj);
  if (stale) return stale;

  const spec = specOf(obj);
  const desired = numberAt(spec, 'replicas') ?? 1;
  const ready = numberAt(status, 'readyReplicas') ?? 0;
  const replicas = numberAt(status, 'replicas') ?? 0;
  if (replicas < desired) {
    return verdict('Progressing', 'RollingOut', `waiting for pods to be created: ${replicas} of ${desired}`);
  }
  if (ready < desired) {
    return verdict('Progressing', 'RollingOut', `waiting for pods to be ready: ${ready} of ${desired} ready`);
  }
  if (replicas > desired) {
    return verdict(
      'Progressing',
      'ScalingDown',
      `scaling down to ${desired}: ${replicas - desired} pods pending termination`,
    );
  }

  const strategy = objectAt(spec, 'updateStrategy');
  if (stringAt(strategy, 'type') === 'OnDelete') {
    return verdict(
      'Healthy',
      'Ready',
      `${ready} of ${desired} pods ready (OnDelete: pods update when deleted)`,
    );
  }

  const partition = numberAt(objectAt(strategy, 'rollingUpdate'), 'partition') ?? 0;
  const updated = numberAt(status, 'updatedReplicas') ?? 0;
  if (partition > 0) {
    const expected = Math.max(desired - partition, 0);
    return updated < expected
      ? verdict(
          'Progressing',
          'RollingOut',
          `partitioned rollout: ${updated} of ${expected} new pods updated`,
        )
      : verdict('Healthy', 'PartitionRolledOut', `partitioned rollout complete: ${updated} new pods updated`);
  }

  const updateRevision = stringAt(status, 'updateRevision');
  const currentRevision = stringAt(status, 'currentRevision');
  const current = numberAt(status, 'currentReplicas') ?? 0;
  if (current < desired || updateRevision !== currentRevision) {
    const to = updateRevision ? ` to revision ${updateRevision}` : '';
    return verdict(
      'Progressing',
      'RollingOut',
      `rolling update in progress: ${updated} of ${desired} pods updated${to}, ${current} at the current revision`,
    );
  }
  const at = currentRevision ? ` at revision ${currentRevision}` : '';
  return verdict('Healthy', 'RolloutComplete', `${ready} of ${desired} pods ready${at}`);
}
