import type { K8sObject } from '../core/object.js';
import { noStatus, numberAt, objectAt, specOf, staleGeneration, statusOf, stringAt } from './fields.js';
import { verdict, type HealthVerdict } from './types.js';

/**
 * Health of an `apps/v1` DaemonSet, with `kubectl rollout status` semantics:
 *
 * - `Unknown` (NoStatus) before the controller writes status;
 * - `Progressing` while `status.observedGeneration` is behind, while fewer updated pods are
 *   scheduled than `desiredNumberScheduled`, or while fewer are available;
 * - `Healthy` otherwise. With the `OnDelete` strategy only availability is judged, since the
 *   controller never replaces pods by itself.
 *
 * It never returns `Degraded` (DaemonSets have no progress deadline) and does not judge
 * `numberMisscheduled` or nodes that the selector or taints exclude: those are not rollout state.
 */
export function daemonSetHealth(obj: K8sObject): HealthVerdict {
  const status = statusOf(obj);
  if (!status) return noStatus(obj);
  const stale = staleGeneration(obj);
  if (stale) return stale;

  const desired = numberAt(status, 'desiredNumberScheduled') ?? 0;
  const updated = numberAt(status, 'updatedNumberScheduled') ?? 0;
  const available = numberAt(status, 'numberAvailable') ?? 0;
  const onDelete = stringAt(objectAt(specOf(obj), 'updateStrategy'), 'type') === 'OnDelete';

  if (!onDelete && updated < desired) {
    return verdict('Progressing', 'RollingOut', `${updated} of ${desired} updated pods scheduled`);
  }
  if (available < desired) {
    return verdict('Progressing', 'RollingOut', `${available} of ${desired} pods available`);
  }
  return verdict('Healthy', 'RolloutComplete', `${available} of ${desired} pods updated and available`);
}
