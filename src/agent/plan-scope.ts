// Which part of a plan a cycle applies, and whether a plan leaves work for the next cycle. Pure.
import { Plan } from '../plan/plan-result.js';
import type { PlanItem } from '../plan/types.js';
import type { SynthResult } from '../synth/synthesize.js';

/** Waits for hooks (a pinned operator mid-walk, a version step in flight) are pending work: keep applying. */
export function hasPendingWork(plan: Plan): boolean {
  return plan.items.some(
    (i) =>
      (i.ref.kind === 'ClusterVersion' ||
        i.ref.kind === 'Subscription' ||
        i.ref.kind === 'MachineConfigPool') &&
      i.desired !== undefined,
  );
}

/**
 * Detect-only mode: of a new revision, only what git changed is applied (objects whose manifest
 * changed or appeared, and prunes of removed ones); drift on objects git did not touch stays, and
 * is reported.
 */
export function onlyGitChanges(plan: Plan, next: SynthResult, previous: SynthResult | undefined): Plan {
  if (!previous) return plan;
  const before = new Map(previous.manifests.map((m) => [m.id, m.hash]));
  const after = new Map(next.manifests.map((m) => [m.id, m.hash]));
  const items: PlanItem[] = plan.items.map((i) => {
    if (!i.desired || (i.action !== 'update' && i.action !== 'create')) return i;
    return before.get(i.id) === after.get(i.id) ? { ...i, action: 'unchanged' as const, diff: [] } : i;
  });
  return new Plan({
    platform: plan.platform,
    overlay: plan.overlay,
    ...(plan.revision ? { revision: plan.revision } : {}),
    items,
    failedLists: plan.failedLists,
    desiredCount: plan.desiredCount,
    inventorySize: plan.inventorySize,
  });
}
