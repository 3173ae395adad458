import type { Condition, K8sObject } from '../core/object.js';
import { arrayAt, describeCondition, statusOf, stringAt } from './fields.js';
import { verdict, type HealthVerdict } from './types.js';

/**
 * Health of a core `v1` Namespace, from `status.phase`:
 *
 * - `Healthy` (Active) when the phase is `Active`;
 * - `Progressing` (Terminating) when the phase is `Terminating`, with the namespace's True
 *   deletion conditions (content or finalizers remaining, failures) in the message;
 * - `Unknown` (NoStatus / UnknownPhase) otherwise.
 *
 * It does not judge the objects inside the namespace, nor whether a termination is stuck: a
 * namespace blocked by a finalizer stays `Progressing` and the caller's timeout decides.
 */
export function namespaceHealth(obj: K8sObject): HealthVerdict {
  const status = statusOf(obj);
  const phase = stringAt(status, 'phase');
  if (phase === 'Active') return verdict('Healthy', 'Active', 'the namespace is active');
  if (phase === 'Terminating') {
    const blockers = (arrayAt(status, 'conditions') as Condition[])
      .filter((c) => c?.status === 'True')
      .map(describeCondition);
    return verdict('Progressing', 'Terminating', ['the namespace is being deleted', ...blockers].join('; '));
  }
  return phase === undefined
    ? verdict('Unknown', 'NoStatus', 'the namespace has no phase yet')
    : verdict('Unknown', 'UnknownPhase', `unknown namespace phase ${phase}`);
}
