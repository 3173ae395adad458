import type { Condition, K8sObject } from '../core/object.js';
import { arrayAt, describeCondition, statusOf, stringAt } from './fields.js';
import { verdict, type HealthVerdict } from './types.js';

/** Conditions of a deletion that waits on someone else, in the order they are named (k8s.io/api core/v1 `NamespaceConditionType`). */
const STUCK = ['NamespaceFinalizersRemaining', 'NamespaceContentRemaining'];

/**
 * Health of a core `v1` Namespace, from `status.phase`:
 *
 * - `Healthy` (Active) when the phase is `Active`;
 * - when it is being deleted (phase `Terminating`, or a deletionTimestamp): `Degraded`, with the
 *   condition as reason (`NamespaceFinalizersRemaining`, `NamespaceContentRemaining`), when the
 *   namespace controller reports that finalizers or content hold it; else `Progressing`
 *   (Terminating). The message names every True deletion condition;
 * - `Unknown` (NoStatus / UnknownPhase) otherwise.
 *
 * It does not judge the objects inside the namespace, nor how long a deletion has been held.
 */
export function namespaceHealth(obj: K8sObject): HealthVerdict {
  const status = statusOf(obj);
  const phase = stringAt(status, 'phase');
  if (phase === 'Active') return verdict('Healthy', 'Active', 'the namespace is active');
  if (phase === 'Terminating' || obj.metadata.deletionTimestamp) {
    const held = (arrayAt(status, 'conditions') as Condition[]).filter((c) => c?.status === 'True');
    const blockers = held.map((c) => `${c.type}: ${describeCondition(c)}`);
    const message = ['the namespace is being deleted', ...blockers].join('; ');
    // A finalizer nobody removes holds it for ever: the condition names it, and the verdict says so.
    const stuck = STUCK.map((t) => held.find((c) => c.type === t)).find((c) => c !== undefined);
    return stuck ? verdict('Degraded', stuck.type, message) : verdict('Progressing', 'Terminating', message);
  }
  return phase === undefined
    ? verdict('Unknown', 'NoStatus', 'the namespace has no phase yet')
    : verdict('Unknown', 'UnknownPhase', `unknown namespace phase ${phase}`);
}
