import type { Alert } from './types.js';

/** What the last finished cycle left: the stages still waiting, and the applied revision. */
export interface Progress {
  readonly stages: readonly string[];
  readonly applied?: string;
}

/** The stages whose waits are a version update and a pool rollout (src/core/stages.ts). */
const WATCHED = [
  {
    stage: 'cluster-version',
    started: 'VersionStepStarted',
    finished: 'VersionStepFinished',
    what: 'cluster version update',
  },
  {
    stage: 'machine-configs',
    started: 'PoolRolloutStarted',
    finished: 'PoolRolloutFinished',
    what: 'machine config pool rollout',
  },
] as const;

/**
 * Alerts from one cycle to the next. Pure.
 * - A cluster-version or machine-configs stage wait that appears is a version step or pool
 *   rollout started; one that goes away in a cycle that did not fail, finished (a walk of several
 *   steps holds the stage pending throughout: one start, one finish; the messages say the steps).
 * - In an environment promoted from another (`promotedFrom`), its ref moves only by `groundwork
 *   promote`, so a newly applied revision is a promotion. Not after a restart: the first cycle
 *   only learns the applied revision (a promotion while the agent was down is not told).
 */
export function transitionAlerts(
  before: Progress | undefined,
  cycle: {
    revision: string | undefined;
    failed: boolean;
    good: boolean;
    pending: readonly { stage: string; message: string }[];
  },
  env: { name: string; promotedFrom?: string },
): { alerts: Alert[]; progress: Progress } {
  const stages = [...new Set(cycle.pending.map((p) => p.stage))].sort();
  const had = new Set(before?.stages ?? []);
  const alerts: Alert[] = [];
  const revision = cycle.revision;
  const rev = revision ? { revision } : {};
  for (const w of WATCHED) {
    const now = stages.includes(w.stage);
    const message = cycle.pending.find((p) => p.stage === w.stage)?.message;
    if (now && !had.has(w.stage))
      alerts.push({
        event: w.started,
        key: `${w.started}/${revision ?? 'none'}`,
        severity: 'info',
        summary: `${w.what} started${message ? `: ${message}` : ''}`,
        ...rev,
      });
    if (!now && had.has(w.stage) && !cycle.failed)
      alerts.push({
        event: w.finished,
        key: `${w.finished}/${revision ?? 'none'}`,
        severity: 'info',
        summary: `${w.what} finished`,
        ...rev,
      });
  }
  const applied = cycle.good && revision ? revision : before?.applied;
  if (env.promotedFrom && before?.applied !== undefined && applied !== before.applied && revision)
    alerts.push({
      event: 'Promoted',
      key: `Promoted/${env.name}/${revision}`,
      severity: 'info',
      summary: `${revision} promoted from ${env.promotedFrom} to ${env.name} and applied`,
      revision,
    });
  // A failed cycle leaves the last apply's waits as they were.
  const kept = cycle.failed ? (before?.stages ?? []) : stages;
  return { alerts, progress: { stages: kept, ...(applied ? { applied } : {}) } };
}
