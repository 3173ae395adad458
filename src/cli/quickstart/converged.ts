import { ANNOTATIONS } from '../../core/annotations.js';
import type { WaitCheck } from '../../apply/wait.js';
import type { ClusterVersionState } from '../../cluster-version/cluster-state.js';
import type { SyncStatus } from '../../report/sync-status.js';

/** What the quick start reads to decide whether the platform has converged. */
export interface ConvergenceView {
  /** The revision the quick start committed (`main@sha1:<hex>`). */
  revision: string;
  /** The PlatformSync status the agent wrote; undefined before its first report. */
  status: SyncStatus | undefined;
  /** The live ClusterVersion, parsed, with its `groundwork.io/target-version` annotation; undefined when absent. */
  clusterVersion: { target: string | undefined; state: ClusterVersionState } | undefined;
}

/**
 * Has the platform converged? The agent reports `Ready=True` on its PlatformSync for the
 * committed revision (applied, healthy, no drift, no held wait), and the ClusterVersion has
 * completed the update to the version its intent annotation names: the agent takes one graph step
 * per cycle, so `Ready` alone may be between steps. Never fails: a stalled reconcile stays pending
 * (the agent retries), and the wait's timeout ends it. Pure.
 */
export function convergence(view: ConvergenceView): WaitCheck {
  const { status } = view;
  if (!status) return { done: false, pending: ['waiting for the agent to report its first reconcile'] };
  const ready = status.condition('Ready');
  const why = ready ? `${ready.reason}: ${ready.message}` : 'no Ready condition yet';
  if (status.value.lastAppliedRevision !== view.revision || !status.ready)
    return { done: false, pending: [why] };
  const cv = view.clusterVersion;
  if (cv?.target) {
    const latest = cv.state.status?.history[0];
    if (latest?.version !== cv.target || latest.state !== 'Completed')
      return {
        done: false,
        pending: [
          `ClusterVersion ${latest ? `${latest.state} ${latest.version}` : 'without history'}, target ${cv.target}`,
        ],
      };
  }
  return { done: true, pending: [] };
}

/** The target version a ClusterVersion's intent annotation names, if any. */
export function targetVersionOf(obj: {
  metadata: { annotations?: Record<string, string> };
}): string | undefined {
  return obj.metadata.annotations?.[ANNOTATIONS.targetVersion];
}
