import type { ClusterSession } from '../reconcile/cluster-session.js';
import type { ApplyListener } from '../apply/apply-events.js';
import { waitFor } from '../apply/wait.js';
import { ClusterObserver } from '../cluster/observer.js';
import { errorMessage } from '../core/errors.js';
import { HealthReport } from '../report/health-report.js';
import type { Manifest } from '../render/synth/manifest.js';
import type { ObjectId } from '../core/object-id.js';

/** Kinds whose health is a rollout: what `apply --wait-workloads` waits for. */
const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet']);

/**
 * The health of what was applied, read once from the cluster; with `waitWorkloads`, first waits
 * (up to `timeoutMs`) until every Deployment, StatefulSet and DaemonSet is Healthy. Returns the
 * report, and why the wait ended without that (`notReady`) when it did.
 */
export async function healthAfterApply(
  session: ClusterSession,
  manifests: readonly Manifest[],
  opts: {
    waitWorkloads: boolean;
    timeoutMs: number;
    signal?: AbortSignal;
    listener?: ApplyListener;
    /** Objects the apply skipped by design, with why: shown, not counted. @default none */
    skipped?: ReadonlyMap<ObjectId, string>;
  },
): Promise<{ report: HealthReport; notReady?: string }> {
  const wanted = ClusterObserver.wanted(manifests.map((m) => m.object));
  const skipped = opts.skipped ? { skipped: opts.skipped } : {};
  const read = async () =>
    new HealthReport(manifests, (await session.observer.observe(wanted)).live, skipped);
  let report = await read();
  if (!opts.waitWorkloads) return { report };
  const workloads = (r: HealthReport) =>
    r.unhealthy.filter((row) => WORKLOADS.has(row.subject.split('/')[0]!));
  try {
    await waitFor(
      async () => {
        report = await read();
        const pending = workloads(report).map((w) => `${w.subject}: ${w.status} (${w.reason})`);
        return { done: pending.length === 0, pending };
      },
      {
        what: 'workloads Healthy',
        timeoutMs: opts.timeoutMs,
        ...(opts.signal ? { signal: opts.signal } : {}),
        intervalMs: 1000,
        onProgress: (pending, elapsedMs) =>
          opts.listener?.({
            type: 'wait-progress',
            stage: 'resources',
            what: 'workloads Healthy',
            pending,
            elapsedMs,
          }),
      },
    );
    return { report };
  } catch (err) {
    return { report, notReady: errorMessage(err) };
  }
}
