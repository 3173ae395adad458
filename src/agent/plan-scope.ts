// Which part of a plan a cycle applies, and whether a plan leaves work for the next cycle. Pure.
import { Plan } from '../plan/plan-result.js';
import type { PlanItem } from '../plan/types.js';
import type { SynthResult } from '../render/synth/synthesize.js';

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
  return withItems(plan, items);
}

/**
 * Self-heal mode, a new revision: objects whose manifest git did not change since `previous`
 * force their field-manager conflicts, as a cycle on the same revision would. A conflict there is
 * drift from what was applied, not git taking a field someone else owns; without the force a
 * drifted field (say a `kubectl edit` the drift watch did not see, across an apiserver restart)
 * failed every apply of the new revision, which never became the last good one, so the cycles that
 * force never came. Objects git changed or added do not force. Without `previous`: the plan as is.
 */
export function forceWhereGitUnchanged(
  plan: Plan,
  next: SynthResult,
  previous: SynthResult | undefined,
): Plan {
  if (!previous) return plan;
  const before = new Map(previous.manifests.map((m) => [m.id, m.hash]));
  const after = new Map(next.manifests.map((m) => [m.id, m.hash]));
  const items: PlanItem[] = plan.items.map((i) => {
    if (!i.desired || i.policy.forceConflicts || !before.has(i.id) || before.get(i.id) !== after.get(i.id))
      return i;
    const policy = { ...i.policy, forceConflicts: true };
    if (i.problem?.code !== 'Conflict') return { ...i, policy };
    const { problem: _conflict, message: _message, ...rest } = i; // forced: no longer a problem
    return { ...rest, policy };
  });
  return withItems(plan, items);
}

function withItems(plan: Plan, items: PlanItem[]): Plan {
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
