import type { K8sObject } from '../core/object.js';
import { appliedBy } from './ownership.js';
import type { Plan } from './plan-result.js';
import type { PlanItem } from './types.js';

/**
 * Field managers a person's hand leaves: kubectl records `kubectl-edit`, `kubectl-patch`,
 * `kubectl-scale`, `kubectl-label`, `kubectl-annotate`, `kubectl-set`, `kubectl-replace`,
 * `kubectl-client-side-apply`, `kubectl-rollout`, and `kubectl` for `apply --server-side`.
 * A controller (an HPA, an operator) writes under its own name and is never manual.
 */
export function isManualManager(manager: string): boolean {
  return /^kubectl(-[a-z-]+)?$/.test(manager);
}

/**
 * True when a field is out-of-band drift: git sets it (it is in the plan's diff), Groundwork applied
 * the object before (an `Apply` entry of `fieldManager` on the live object), and a manual manager
 * (`isManualManager`) took the field since. Such a field is restored by `apply` without
 * `--force-conflicts`, as the agent restores it in self-heal mode.
 */
export function isOutOfBand(live: K8sObject | undefined, manager: string, fieldManager: string): boolean {
  return live !== undefined && isManualManager(manager) && appliedBy(live, fieldManager);
}

/**
 * The plan the CLI's `apply` runs: items whose every conflict is out-of-band drift
 * (`isOutOfBand`) force their conflicts and are no longer problems (their message says what they
 * restore); every other conflict stays a problem, for the apply to report. Pure; returns a new plan.
 */
export function forceOutOfBand(plan: Plan, opts: { fieldManager: string }): Plan {
  const items = plan.items.map((i): PlanItem => {
    const conflicts = i.problem?.code === 'Conflict' ? (i.problem.conflicts ?? []) : [];
    if (conflicts.length === 0 || !conflicts.every((c) => isOutOfBand(i.live, c.manager, opts.fieldManager)))
      return i;
    const { problem: _forced, ...rest } = i;
    const managers = [...new Set(conflicts.map((c) => c.manager))].join(', ');
    return {
      ...rest,
      policy: { ...i.policy, forceConflicts: true },
      message: `restores ${conflicts.length} field(s) changed out of band by ${managers}`,
    };
  });
  return plan.withItems(items);
}
