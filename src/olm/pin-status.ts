import type { ApprovalDecision, ApprovalReason, ApprovalReport } from './approval-report.js';
import type { SubscriptionLike } from './olm-objects.js';

/** An InstallPlan of a pinned operator, with what Groundwork decided about it and why. */
export interface PinnedInstallPlan {
  readonly name: string;
  readonly decision: ApprovalDecision;
  readonly reason: ApprovalReason;
  readonly message: string;
}

/**
 * A pinned operator as the agent publishes it (`status.operatorPins`): its Subscription, the pin
 * (`startingCSV` of a Manual Subscription), the CSV installed, and the open InstallPlans that carry
 * one of its CSVs with the approval decision.
 */
export interface OperatorPinStatus {
  /** `namespace/name` of the Subscription. */
  readonly subscription: string;
  readonly package: string;
  readonly pin: string;
  readonly installed?: string;
  readonly installPlans: readonly PinnedInstallPlan[];
}

/** A pinned Subscription as the approval hook reads it from the desired objects. */
export interface PinnedSubscription {
  readonly sub: string;
  readonly namespace: string;
  readonly package: string;
  readonly pin: string;
}

/**
 * The published view of the pinned operators, from the approval decisions (`decideApprovals`) of
 * this pass. Pure; it decides nothing itself. An InstallPlan belongs to a pin when one of its CSVs is
 * attributed to that Subscription; completed plans (history) are left out. Sorted by Subscription.
 */
export function operatorPinStatus(
  pins: readonly PinnedSubscription[],
  subscriptions: readonly SubscriptionLike[],
  reports: readonly ApprovalReport[],
): OperatorPinStatus[] {
  return pins
    .map((p): OperatorPinStatus => {
      const live = subscriptions.find(
        (s) => s.metadata.name === p.sub && (s.metadata.namespace ?? p.namespace) === p.namespace,
      );
      const installed = live?.status?.installedCSV;
      const plans = reports
        .filter((r) => r.namespace === p.namespace)
        .flatMap((r) => r.verdicts)
        .filter((v) => v.decision !== 'complete' && v.csvs.some((c) => c.owner === p.sub))
        .map((v) => ({ name: v.installPlan, decision: v.decision, reason: v.reason, message: v.message }));
      return {
        subscription: `${p.namespace}/${p.sub}`,
        package: p.package,
        pin: p.pin,
        ...(installed ? { installed } : {}),
        installPlans: plans,
      };
    })
    .sort((a, b) => (a.subscription < b.subscription ? -1 : a.subscription > b.subscription ? 1 : 0));
}
