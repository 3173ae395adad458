import { redactText } from '../core/redact.js';
import {
  SYNC_CONDITION_TYPES,
  clip,
  rfc3339,
  type FailureReason,
  type SyncCondition,
  type SyncConditionType,
  type SyncReason,
  type SyncStatusJson,
} from './sync-status-schema.js';
import { driftText, suspendedText } from './sync-status-render.js';

/** The kstatus conditions of a PlatformSync: which are wanted for each situation, and how they are set. */

export type WantedCondition = Pick<SyncCondition, 'type' | 'status' | 'reason' | 'message'>;

function want(
  type: SyncConditionType,
  status: SyncCondition['status'],
  reason: SyncReason,
  message: string,
): WantedCondition {
  return { type, status, reason, message: clip(redactText(message)) };
}

export function progressingConditions(message: string): WantedCondition[] {
  return [
    want('Ready', 'Unknown', 'Progressing', message),
    want('Reconciling', 'True', 'Progressing', message),
  ];
}

export function failedConditions(
  reason: FailureReason,
  message: string,
  transient: boolean,
): WantedCondition[] {
  return transient
    ? [want('Ready', 'False', reason, message), want('Reconciling', 'True', 'ProgressingWithRetry', message)]
    : [want('Ready', 'False', reason, message), want('Stalled', 'True', reason, message)];
}

/** Conditions from the facts of a finished reconcile, worst first. */
export function outcomeConditions(f: SyncStatusJson, latest: string | undefined): WantedCondition[] {
  const health = f.health?.status ?? 'Unknown';
  const healthMessage = `${health} (${f.health?.reason ?? 'NotAssessed'})${f.health?.message ? `: ${f.health.message}` : ''}`;
  if (f.suspended)
    return [
      want('Ready', 'False', 'Suspended', `${suspendedText(f.suspended)}; drift: ${driftText(f.drift)}`),
    ];
  if (health === 'Degraded' || health === 'Missing')
    return [
      want('Ready', 'False', 'HealthCheckFailed', healthMessage),
      want('Stalled', 'True', 'HealthCheckFailed', healthMessage),
    ];
  if (f.drift && f.drift.drifted > 0)
    return [want('Ready', 'False', 'DriftDetected', `${driftText(f.drift)}`)];
  if (latest && f.lastAppliedRevision !== latest)
    return progressingConditions(
      `revision ${latest} is not applied yet (applied: ${f.lastAppliedRevision ?? 'none'})`,
    );
  if (f.pending?.length) {
    const message = f.pending.map((p) => `${p.stage}: ${p.message}`).join('; ');
    return [want('Ready', 'False', 'Pending', message), want('Reconciling', 'True', 'Pending', message)];
  }
  if (health === 'Progressing' || health === 'Unknown')
    return [
      want('Ready', 'False', 'WaitingForHealth', healthMessage),
      want('Reconciling', 'True', 'WaitingForHealth', healthMessage),
    ];
  if (health === 'Suspended') return [want('Ready', 'False', 'Suspended', healthMessage)];
  return [
    want('Ready', 'True', 'ReconciliationSucceeded', `Applied revision: ${f.lastAppliedRevision ?? ''}`),
  ];
}

export function inProgressOrStalled(s: SyncStatusJson): boolean {
  return s.conditions.some(
    (c) =>
      c.status === 'True' &&
      (c.type === 'Stalled' || c.reason === 'Progressing' || c.reason === 'ProgressingWithRetry'),
  );
}

/** Sets the wanted conditions in kstatus order; a condition keeps its transition time while its status holds. */
export function setConditions(
  previous: readonly SyncCondition[],
  wanted: readonly WantedCondition[],
  at: Date,
  generation: number,
): SyncCondition[] {
  return SYNC_CONDITION_TYPES.flatMap((type) => {
    const w = wanted.find((c) => c.type === type);
    if (!w) return [];
    const old = previous.find((c) => c.type === type);
    return [
      {
        type: w.type,
        status: w.status,
        reason: w.reason,
        message: w.message,
        lastTransitionTime: old && old.status === w.status ? old.lastTransitionTime : rfc3339(at),
        observedGeneration: generation,
      },
    ];
  });
}
