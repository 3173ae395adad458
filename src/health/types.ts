import type { K8sObject } from '../core/object.js';

/**
 * Health states, a closed vocabulary. `HEALTH_ORDER` lists them worst first;
 * roll-ups take the worst state of their members.
 *
 * - `Degraded`: failed or broken; a human must look (Argo CD's Degraded, kstatus Failed).
 * - `Missing`: the object does not exist in the cluster.
 * - `Unknown`: not enough status to judge (no controller has written status yet, or a kind we cannot read).
 * - `Progressing`: moving towards the desired state on its own.
 * - `Suspended`: intentionally held (a paused pool, an update waiting for approval or a window); not failed.
 * - `Healthy`: at the desired state.
 */
export type HealthStatus = 'Degraded' | 'Missing' | 'Unknown' | 'Progressing' | 'Suspended' | 'Healthy';

export const HEALTH_ORDER: readonly HealthStatus[] = [
  'Degraded',
  'Missing',
  'Unknown',
  'Progressing',
  'Suspended',
  'Healthy',
];

/** A verdict on one object: state, a stable CamelCase reason and a human message. */
export interface HealthVerdict {
  status: HealthStatus;
  reason: string;
  message: string;
}

/**
 * What a check may know besides the object: the time it judges at. A check that waits on a clock
 * (an unschedulable pod, kstatus' 15 s `ScheduleWindow`) reads `now`; the others ignore it.
 */
export interface HealthContext {
  readonly now: Date;
}

/** A pure health check for one kind: reads only the object it is given (and the time). */
export type HealthCheck = (obj: K8sObject, context: HealthContext) => HealthVerdict;

/** The worse of two states by `HEALTH_ORDER`. */
export function worse(a: HealthStatus, b: HealthStatus): HealthStatus {
  return HEALTH_ORDER.indexOf(a) <= HEALTH_ORDER.indexOf(b) ? a : b;
}

/** The worst state of a list; `Healthy` for an empty list. */
export function worst(states: Iterable<HealthStatus>): HealthStatus {
  let result: HealthStatus = 'Healthy';
  for (const s of states) result = worse(result, s);
  return result;
}

export function verdict(status: HealthStatus, reason: string, message: string): HealthVerdict {
  return { status, reason, message };
}

/** A verdict about a named object (`Kind/namespace/name`), as roll-ups and reports list them. */
export interface ObjectVerdict extends HealthVerdict {
  subject: string;
}
