import { isPlainObject, type K8sObject } from '../core/object.js';
import { arrayAt, conditionWith, describeCondition, objectAt, statusOf, stringAt } from './fields.js';
import { verdict, type HealthContext, type HealthVerdict } from './types.js';

/**
 * How long a pod may stay unschedulable before it fails: kstatus' `ScheduleWindow` (cli-utils
 * `pkg/kstatus/status/core.go`), counted from `metadata.creationTimestamp`.
 */
export const SCHEDULE_WINDOW_MS = 15_000;

/**
 * Health of a core/v1 Pod at `now`, by its phase (kstatus `podConditions`):
 *
 * - `Progressing` (NotObserved) before the scheduler or a kubelet reports a phase;
 * - `Healthy` (Completed) in phase `Succeeded`: the pod is done, nothing more will happen;
 * - `Degraded` (PodFailed) in phase `Failed`: its containers ended and will not restart;
 * - `Healthy` (Ready) when running with `Ready=True`;
 * - `Degraded` (CrashLooping) when a container or init container waits in `CrashLoopBackOff`;
 * - in phase `Pending` with `PodScheduled=False` (reason `Unschedulable`): `Progressing`
 *   (NotScheduled) for the first `SCHEDULE_WINDOW_MS` after its creation, then `Degraded`
 *   (Unschedulable). A pod without a readable `creationTimestamp` is past the window (kstatus
 *   compares with Go's zero time);
 * - `Progressing` (NotReady / Pending) otherwise in phases `Running` and `Pending`;
 * - `Unknown` (UnknownPhase) for any other phase.
 *
 * It does not judge restarts that are not (yet) a crash loop, nor probes: `Ready` says that.
 */
export function podHealth(obj: K8sObject, { now }: HealthContext): HealthVerdict {
  const status = statusOf(obj);
  const phase = stringAt(status, 'phase');
  if (!phase)
    return verdict('Progressing', 'NotObserved', 'the pod has no phase yet: not observed by a node');
  if (phase === 'Succeeded') return verdict('Healthy', 'Completed', 'the pod completed successfully');
  if (phase === 'Failed') {
    const why = stringAt(status, 'reason') ?? stringAt(status, 'message');
    return verdict('Degraded', 'PodFailed', `the pod failed${why ? `: ${why}` : ''}`);
  }
  if (phase !== 'Running' && phase !== 'Pending') {
    return verdict('Unknown', 'UnknownPhase', `unknown pod phase ${phase}`);
  }
  if (phase === 'Running' && conditionWith(obj, 'Ready', 'True')) {
    return verdict('Healthy', 'Ready', 'the pod is running and ready');
  }
  const looping = crashLooping(status);
  if (looping.length > 0) {
    return verdict('Degraded', 'CrashLooping', `containers in CrashLoopBackOff: ${looping.join(', ')}`);
  }
  const scheduled = conditionWith(obj, 'PodScheduled', 'False');
  if (phase === 'Pending' && scheduled?.reason === 'Unschedulable') {
    const created = Date.parse(obj.metadata.creationTimestamp ?? '');
    const age = Number.isNaN(created) ? Infinity : now.getTime() - created;
    return age < SCHEDULE_WINDOW_MS
      ? verdict('Progressing', 'NotScheduled', `not scheduled yet: ${describeCondition(scheduled)}`)
      : verdict(
          'Degraded',
          'Unschedulable',
          `not scheduled ${SCHEDULE_WINDOW_MS / 1000} s after creation: ${describeCondition(scheduled)}`,
        );
  }
  return phase === 'Running'
    ? verdict('Progressing', 'NotReady', 'the pod is running but not ready')
    : verdict('Progressing', 'Pending', 'the pod is pending');
}

/** Names of the containers (init containers included) waiting in `CrashLoopBackOff`. */
function crashLooping(status: Record<string, unknown> | undefined): string[] {
  return ['initContainerStatuses', 'containerStatuses']
    .flatMap((key) => arrayAt(status, key))
    .filter(isPlainObject)
    .filter((c) => stringAt(objectAt(objectAt(c, 'state'), 'waiting'), 'reason') === 'CrashLoopBackOff')
    .map((c) => stringAt(c, 'name') ?? '?');
}
