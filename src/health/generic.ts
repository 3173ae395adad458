import type { K8sObject } from '../core/object.js';
import { conditionWith, describeCondition, staleGeneration, statusOf } from './fields.js';
import { verdict, type HealthVerdict } from './types.js';

/**
 * Health of a kind without a dedicated check, by kstatus conventions, in this order:
 *
 * - `Healthy` (NoStatus) without status: ConfigMaps, Secrets, RBAC and other objects that are
 *   done once the API server stored them;
 * - `Progressing` (ObservedGenerationOutdated) while `status.observedGeneration` is behind;
 * - `Degraded` (Stalled / Failed) when `Stalled` or `Failed` is True;
 * - `Progressing` (Reconciling) when `Reconciling` is True;
 * - `Progressing` (NotReady / NotAvailable) when `Ready` or `Available` is False;
 * - `Healthy` when `Ready`, `Available` or `Succeeded` is True (the first found is the reason);
 * - `Healthy` (NoConditions) otherwise.
 *
 * A False `Ready` alone is `Progressing`, not `Degraded`: it cannot tell "not yet" from "broken",
 * and kstatus asks controllers to say broken with `Stalled`. A custom resource whose controller has
 * not written status yet looks like a ConfigMap here; only a dedicated check can know better.
 */
export function genericHealth(obj: K8sObject): HealthVerdict {
  if (!statusOf(obj)) return verdict('Healthy', 'NoStatus', `${obj.kind} has no status to wait for`);
  const stale = staleGeneration(obj);
  if (stale) return stale;

  for (const type of ['Stalled', 'Failed']) {
    const condition = conditionWith(obj, type, 'True');
    if (condition) return verdict('Degraded', type, describeCondition(condition));
  }
  const reconciling = conditionWith(obj, 'Reconciling', 'True');
  if (reconciling) return verdict('Progressing', 'Reconciling', describeCondition(reconciling));

  for (const type of ['Ready', 'Available']) {
    const condition = conditionWith(obj, type, 'False');
    if (condition) return verdict('Progressing', `Not${type}`, describeCondition(condition));
  }
  for (const type of ['Ready', 'Available', 'Succeeded']) {
    const condition = conditionWith(obj, type, 'True');
    if (condition) return verdict('Healthy', type, describeCondition(condition));
  }
  return verdict('Healthy', 'NoConditions', `${obj.kind} reports no condition to wait for`);
}
