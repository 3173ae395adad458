import type { K8sObject } from '../core/object.js';
import { noStatus, statusOf, stringAt } from './fields.js';
import { verdict, type HealthStatus, type HealthVerdict } from './types.js';

/** `status.phase` of a ClusterServiceVersion → our state. */
const PHASES: ReadonlyMap<string, HealthStatus> = new Map<string, HealthStatus>([
  ['Succeeded', 'Healthy'],
  ['Failed', 'Degraded'],
  ['Pending', 'Progressing'],
  ['InstallReady', 'Progressing'],
  ['Installing', 'Progressing'],
  ['Replacing', 'Progressing'],
  ['Deleting', 'Progressing'],
  ['Unknown', 'Unknown'],
]);

/**
 * Health of an OLM ClusterServiceVersion, from `status.phase` (see `PHASES`): `Succeeded` is
 * `Healthy`, `Failed` is `Degraded`, `Pending`, `InstallReady`, `Installing`, `Replacing` (a newer
 * CSV is taking over) and `Deleting` are `Progressing`; no status or an unknown phase is `Unknown`.
 * The reason is the phase; the message carries OLM's `status.reason` and `status.message`.
 *
 * It does not judge operands, nor whether a `Pending` CSV's missing requirements (RequirementsNotMet)
 * will ever appear: OLM keeps retrying, so that stays `Progressing` and the caller's timeout decides.
 */
export function clusterServiceVersionHealth(obj: K8sObject): HealthVerdict {
  const status = statusOf(obj);
  const phase = stringAt(status, 'phase');
  if (!status || !phase) return noStatus(obj);
  const detail = [stringAt(status, 'reason'), stringAt(status, 'message')].filter(Boolean).join(': ');
  const message = detail ? `phase ${phase}: ${detail}` : `phase ${phase}`;
  const state = PHASES.get(phase);
  return state ? verdict(state, phase, message) : verdict('Unknown', 'UnknownPhase', `unknown ${message}`);
}
