import { hookWeightOf } from '../core/annotations.js';
import { parseClusterObject } from '../core/cluster-object.js';
import { GroundworkError } from '../core/errors.js';
import { findCondition, type K8sObject } from '../core/object.js';
import { describeRef, type ObjectId } from '../core/object-id.js';
import { assessHealth } from '../health/index.js';
import { clusterServiceVersionSchema, subscriptionStatusObjectSchema } from '../health/olm-status-schemas.js';
import type { PlanItem } from '../plan/types.js';
import { jobStatusObjectSchema, podPhaseObjectSchema } from './hook-status-schemas.js';
import type { ApplyTarget, TargetRef } from './target.js';
import type { WaitCheck } from './wait.js';

const refFor = (i: PlanItem): TargetRef => ({
  id: i.id,
  apiVersion: i.desired?.apiVersion,
  kind: i.ref.kind,
  group: i.ref.group,
  namespace: i.ref.namespace,
});

/** Every CRD of the stage reports Established=True. */
export async function crdsEstablished(target: ApplyTarget, items: readonly PlanItem[]): Promise<WaitCheck> {
  const live = await target.fetch(items.map(refFor));
  const pending = items
    .filter((i) => findCondition(live.get(i.id), 'Established')?.status !== 'True')
    .map((i) => `CRD ${i.ref.name} not Established`);
  return { done: pending.length === 0, pending };
}

/** Every object is Healthy or intentionally held (Suspended), by the pure health checks. */
export async function objectsHealthy(
  target: ApplyTarget,
  items: readonly PlanItem[],
  opts: { failOnDegraded?: boolean } = {},
): Promise<WaitCheck> {
  const live = await target.fetch(items.map(refFor));
  const pending: string[] = [];
  for (const i of items) {
    const obj = live.get(i.id);
    if (!obj) {
      pending.push(`${describeRef(i.ref)}: missing`);
      continue;
    }
    const v = assessHealth(obj);
    if (v.status === 'Healthy' || v.status === 'Suspended') continue;
    if (v.status === 'Degraded' && opts.failOnDegraded)
      return { done: false, pending, failed: `${describeRef(i.ref)}: ${v.reason}: ${v.message}` };
    pending.push(`${describeRef(i.ref)}: ${v.status} (${v.reason}) ${v.message}`);
  }
  return { done: pending.length === 0, pending };
}

/**
 * Every Subscription has an installed CSV in phase Succeeded (for a pinned operator: the CSV it
 * sits at). The pending list says what each one waits for (resolution, approval, install).
 * @throws ClusterObjectInvalidError when a Subscription's or CSV's status has fields of other types.
 */
export async function csvsSucceeded(target: ApplyTarget, subs: readonly PlanItem[]): Promise<WaitCheck> {
  const live = await target.fetch(subs.map(refFor));
  const csvRefs = new Map<ObjectId, { sub: PlanItem; csv: string }>();
  const pending: string[] = [];
  for (const s of subs) {
    const obj = live.get(s.id);
    const installed =
      obj && parseClusterObject(subscriptionStatusObjectSchema, obj, 'Subscription').status?.installedCSV;
    if (!obj || !installed) {
      const v = obj ? assessHealth(obj) : undefined;
      pending.push(`${describeRef(s.ref)}: ${v ? `${v.reason}: ${v.message}` : 'missing'}`);
      continue;
    }
    const id = `${s.ref.namespace}_${installed}_operators.coreos.com_ClusterServiceVersion`;
    csvRefs.set(id, { sub: s, csv: installed });
  }
  const csvs = await target.fetch(
    [...csvRefs.keys()].map((id) => ({
      id,
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'ClusterServiceVersion',
      group: 'operators.coreos.com',
      namespace: csvRefs.get(id)!.sub.ref.namespace,
    })),
  );
  for (const [id, { sub, csv }] of csvRefs) {
    const live = csvs.get(id);
    const phase =
      live && parseClusterObject(clusterServiceVersionSchema, live, 'ClusterServiceVersion').status?.phase;
    if (phase !== 'Succeeded')
      pending.push(`${describeRef(sub.ref)}: CSV ${csv} ${phase ?? 'not created yet'}`);
  }
  return { done: pending.length === 0, pending };
}

/**
 * Whether a hook (`groundwork.io/hook-weight`) has done its work, as helm's `WatchUntilReady`
 * judges it: a Job when its `Complete` condition is True, a Pod in phase `Succeeded`, any other
 * kind once it exists. Pending while the Job runs or the Pod is Pending or Running; a hook that is
 * missing is pending too (a re-created Job between its delete and its create).
 * @throws GroundworkError `HookFailed` when the Job's `Failed` condition is True or the Pod is in
 *   phase `Failed`, naming the hook, the construct that declared it and its weight; never a wait
 *   that goes on (waiting longer will not help: a failed Job is not retried).
 */
export async function hookDone(target: ApplyTarget, hook: PlanItem): Promise<WaitCheck> {
  const live = (await target.fetch([refFor(hook)])).get(hook.id);
  const name = describeRef(hook.ref);
  if (!live) return { done: false, pending: [`${name}: hook not created yet`] };
  const outcome = hookOutcome(live);
  if (outcome.state === 'failed')
    throw new GroundworkError({
      code: 'HookFailed',
      subject: `${name} (hook${hook.source ? ` of ${hook.source}` : ''}, weight ${hookWeightOf(live) ?? 0})`,
      message: `${outcome.message}; the objects after it were not applied and nothing was pruned`,
      fix: `read its logs (kubectl logs -n ${hook.ref.namespace ?? 'default'} ${hook.ref.kind.toLowerCase()}/${hook.ref.name}), then fix the chart or its values in git; a changed hook is re-created and runs again, or delete it to run it again as it is`,
    });
  if (outcome.state === 'done') return { done: true, pending: [] };
  return { done: false, pending: [`${name}: ${outcome.message}`] };
}

/** helm's milestone of a hook object. Pure. */
export function hookOutcome(live: K8sObject): { state: 'done' | 'pending' | 'failed'; message: string } {
  if (live.kind === 'Job' && live.apiVersion === 'batch/v1') {
    const { status } = parseClusterObject(jobStatusObjectSchema, live, 'Job');
    const conditions = status?.conditions ?? [];
    const counts = `${status?.succeeded ?? 0} succeeded, ${status?.active ?? 0} active, ${status?.failed ?? 0} failed`;
    if (conditions.some((c) => c.type === 'Complete' && c.status === 'True'))
      return { state: 'done', message: `the job completed (${counts})` };
    const failed = conditions.find((c) => c.type === 'Failed' && c.status === 'True');
    if (failed)
      return {
        state: 'failed',
        message: `the job failed${failed.reason ? ` (${failed.reason})` : ''}${failed.message ? `: ${failed.message}` : ''} (${counts})`,
      };
    return { state: 'pending', message: `the job has not completed (${counts})` };
  }
  if (live.kind === 'Pod' && live.apiVersion === 'v1') {
    const phase = parseClusterObject(podPhaseObjectSchema, live, 'Pod').status?.phase;
    if (phase === 'Succeeded') return { state: 'done', message: 'the pod succeeded' };
    if (phase === 'Failed') return { state: 'failed', message: 'the pod failed' };
    return { state: 'pending', message: `the pod is ${phase ?? 'not scheduled yet'}` };
  }
  return { state: 'done', message: 'exists' };
}
