import type { K8sObject } from '../core/object.js';
import { statusOf, stringAt } from './fields.js';
import { verdict, type HealthVerdict } from './types.js';

/**
 * Health of a core/v1 PersistentVolumeClaim, by its phase (kstatus `pvcConditions`):
 *
 * - `Healthy` (Bound) once bound to a volume;
 * - `Degraded` (Lost) when its bound volume is gone: it will not come back on its own;
 * - `Progressing` (NotBound) otherwise (`Pending`: waiting for a volume, or for a consumer with
 *   `WaitForFirstConsumer` binding), and before the volume controller reports a phase at all.
 */
export function persistentVolumeClaimHealth(obj: K8sObject): HealthVerdict {
  const phase = stringAt(statusOf(obj), 'phase');
  if (!phase) return verdict('Progressing', 'NotBound', 'the claim is not bound (no phase yet)');
  if (phase === 'Bound') return verdict('Healthy', 'Bound', 'the claim is bound to a volume');
  if (phase === 'Lost') return verdict('Degraded', 'Lost', 'the claim lost its bound volume');
  return verdict('Progressing', 'NotBound', `the claim is not bound (phase ${phase})`);
}
