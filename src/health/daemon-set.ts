import type { K8sObject } from '../core/object.js';
import { numberAt, objectAt, specOf, staleGeneration, statusOf, stringAt } from './fields.js';
import { verdict, type HealthVerdict } from './types.js';

/**
 * Health of an `apps/v1` DaemonSet, with `kubectl rollout status` semantics:
 *
 * - `Progressing` (NotObserved) until the controller has acted on it (so before it writes any status): `metadata.generation`,
 *   `status.observedGeneration` and `status.desiredNumberScheduled` must all be set (kstatus
 *   `daemonsetConditions` and `checkGenerationSet`: the controller always writes them, so a status
 *   without them was written by something else or is not the controller's yet);
 * - `Progressing` while `status.observedGeneration` is behind, while fewer pods are scheduled
 *   (`currentNumberScheduled`) or updated than `desiredNumberScheduled`, or fewer available or ready;
 * - `Healthy` otherwise. With the `OnDelete` strategy only availability is judged, since the
 *   controller never replaces pods by itself.
 *
 * It never returns `Degraded` (DaemonSets have no progress deadline) and does not judge
 * `numberMisscheduled` or nodes that the selector or taints exclude: those are not rollout state.
 */
export function daemonSetHealth(obj: K8sObject): HealthVerdict {
  const status = statusOf(obj);
  const stale = staleGeneration(obj);
  if (stale) return stale;

  const desired = numberAt(status, 'desiredNumberScheduled');
  const missing = [
    obj.metadata.generation === undefined && 'metadata.generation',
    numberAt(status, 'observedGeneration') === undefined && 'status.observedGeneration',
    desired === undefined && 'status.desiredNumberScheduled',
  ].filter((f): f is string => !!f);
  if (missing.length > 0 || desired === undefined) {
    return verdict(
      'Progressing',
      'NotObserved',
      `waiting for the DaemonSet controller to act on it: ${missing.join(', ')} not set`,
    );
  }
  const current = numberAt(status, 'currentNumberScheduled') ?? 0;
  const updated = numberAt(status, 'updatedNumberScheduled') ?? 0;
  const available = numberAt(status, 'numberAvailable') ?? 0;
  const ready = numberAt(status, 'numberReady') ?? 0;
  const onDelete = stringAt(objectAt(specOf(obj), 'updateStrategy'), 'type') === 'OnDelete';

  if (current < desired) {
    return verdict('Progressing', 'RollingOut', `${current} of ${desired} pods scheduled`);
  }
  if (!onDelete && updated < desired) {
    return verdict('Progressing', 'RollingOut', `${updated} of ${desired} updated pods scheduled`);
  }
  if (available < desired) {
    return verdict('Progressing', 'RollingOut', `${available} of ${desired} pods available`);
  }
  if (ready < desired) {
    return verdict('Progressing', 'RollingOut', `${ready} of ${desired} pods ready`);
  }
  return verdict('Healthy', 'RolloutComplete', `${available} of ${desired} pods updated and available`);
}
