import type { HealthVerdict } from '../health/types.js';
import type { InstallPlanLike, SubscriptionLike } from './olm-objects.js';

/**
 * The health of a pinned Subscription that has reached its pin.
 *
 * An operator sitting at its pinned CSV is `Healthy`, also when OLM has already
 * offered the next hop in an InstallPlan waiting for approval (`state:
 * UpgradePending`, `currentCSV` past the pin): Groundwork leaves that plan
 * unapproved on purpose, so it is not progressing. Reason `AtPin`, or
 * `HeldAtPin` when a next hop waits.
 *
 * Returns undefined when the rule does not apply (not at the pin yet, or the
 * waiting plan has been approved after all): judge the Subscription as usual.
 * `plan` is the InstallPlan `status.installPlanRef` names, when the caller has it.
 *
 * @example
 * heldAtPin(sub, 'camel-k-operator.v2.5.1')?.status; // 'Healthy'
 */
export function heldAtPin(
  sub: SubscriptionLike,
  pinnedCSV: string,
  plan?: InstallPlanLike,
): HealthVerdict | undefined {
  const { installedCSV, currentCSV, installPlanRef } = sub.status ?? {};
  if (installedCSV !== pinnedCSV) return undefined;
  if (currentCSV === undefined || currentCSV === pinnedCSV) {
    return { status: 'Healthy', reason: 'AtPin', message: `at pinned ${pinnedCSV}` };
  }
  if (
    plan &&
    plan.metadata.name === installPlanRef?.name &&
    (plan.spec.approved || plan.status?.phase === 'Complete')
  ) {
    return undefined;
  }
  const where = installPlanRef ? ` in InstallPlan ${installPlanRef.name}` : '';
  return {
    status: 'Healthy',
    reason: 'HeldAtPin',
    message: `at pinned ${pinnedCSV}; OLM offers ${currentCSV}${where}, left unapproved on purpose`,
  };
}
