import { isPlainObject, type K8sObject } from '../core/object.js';
import { arrayAt, conditionWith, describeCondition, objectAt, statusOf, stringAt } from './fields.js';
import { verdict, type HealthVerdict } from './types.js';

/**
 * Health of a core/v1 Pod, by its phase (kstatus `podConditions`):
 *
 * - `Unknown` (NoStatus) before the kubelet or scheduler reports a phase;
 * - `Healthy` (Completed) in phase `Succeeded`: the pod is done, nothing more will happen;
 * - `Degraded` (PodFailed) in phase `Failed`: its containers ended and will not restart;
 * - `Healthy` (Ready) when running with `Ready=True`;
 * - `Degraded` (CrashLooping) when a container or init container waits in `CrashLoopBackOff`;
 * - `Progressing` (Unschedulable) while `PodScheduled=False` with reason `Unschedulable`: the
 *   scheduler keeps retrying (a node may free up or be added), so the caller's timeout decides;
 * - `Progressing` (NotReady / Pending) otherwise in phases `Running` and `Pending`;
 * - `Unknown` (UnknownPhase) for any other phase.
 *
 * It does not judge restarts that are not (yet) a crash loop, nor probes: `Ready` says that.
 */
export function podHealth(obj: K8sObject): HealthVerdict {
  const status = statusOf(obj);
  const phase = stringAt(status, 'phase');
  if (!phase) return verdict('Unknown', 'NoStatus', 'the pod has no phase yet: not observed by a node');
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
  if (scheduled?.reason === 'Unschedulable') {
    return verdict('Progressing', 'Unschedulable', describeCondition(scheduled));
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
