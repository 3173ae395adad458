// The ClusterVersion status the simulated CVO writes, and the CVO's condition helpers.
import type { ConditionalUpdate, StatusCondition, StatusRelease } from './cvo-updates.js';

export interface HistoryEntry {
  acceptedRisks?: string;
  completionTime: string | null;
  image: string;
  startedTime: string;
  state: 'Partial' | 'Completed';
  verified: boolean;
  version: string;
}

export interface ClusterVersionStatus {
  availableUpdates: StatusRelease[] | null;
  conditionalUpdates?: ConditionalUpdate[];
  conditions: StatusCondition[];
  desired: StatusRelease;
  history: HistoryEntry[];
  observedGeneration: number;
  versionHash: string;
  [field: string]: unknown;
}

/**
 * `resourcemerge.SetOperatorStatusCondition`: replaces reason and message, and the transition time
 * only when the status changes; appends a missing condition.
 */
export function setCondition(
  status: ClusterVersionStatus,
  cond: Omit<StatusCondition, 'lastTransitionTime'>,
  now: string,
): void {
  const existing = status.conditions.find((c) => c.type === cond.type);
  const next: StatusCondition = {
    lastTransitionTime: existing && existing.status === cond.status ? existing.lastTransitionTime : now,
    ...(cond.message ? { message: cond.message } : {}),
    ...(cond.reason ? { reason: cond.reason } : {}),
    status: cond.status,
    type: cond.type,
  };
  if (existing) status.conditions[status.conditions.indexOf(existing)] = next;
  else status.conditions.push(next);
}

export function removeCondition(status: ClusterVersionStatus, type: string): void {
  status.conditions = status.conditions.filter((c) => c.type !== type);
}
