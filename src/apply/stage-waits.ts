import { parseClusterObject } from '../core/cluster-object.js';
import { findCondition } from '../core/object.js';
import { describeRef, type ObjectId } from '../core/object-id.js';
import { assessHealth } from '../health/index.js';
import { clusterServiceVersionSchema, subscriptionStatusObjectSchema } from '../health/olm-status-schemas.js';
import type { PlanItem } from '../plan/types.js';
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
