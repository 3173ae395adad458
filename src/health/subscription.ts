import type { K8sObject } from '../core/object.js';
import { conditionWith, describeCondition, noStatus, objectAt, statusOf, stringAt } from './fields.js';
import { verdict, type HealthVerdict } from './types.js';

/** Conditions that mean OLM cannot install or update the operator until someone acts. */
const FAILURES = ['ResolutionFailed', 'InstallPlanFailed', 'CatalogSourcesUnhealthy'] as const;

/**
 * Health of an OLM `operators.coreos.com/v1alpha1` Subscription, in this order:
 *
 * - `Unknown` (NoStatus) before OLM writes status;
 * - `Degraded` when `ResolutionFailed`, `InstallPlanFailed` or `CatalogSourcesUnhealthy` is True
 *   (reason: the first of these, message: all of them), or when `InstallPlanMissing` is True before
 *   anything was installed. `InstallPlanMissing` after an install is normal: plans are garbage
 *   collected, so it does not count;
 * - `InstallPlanPending` with reason `RequiresApproval` (manual approval):
 *   `Healthy` (UpgradeAwaitingApproval) when `installedCSV` is set, since the installed operator
 *   runs and holding the update is what `Manual` asks for; `Suspended` (AwaitingApproval) for a
 *   first install, which will not happen without a human (Argo CD says Progressing here);
 * - `Progressing` (InstallPlanPending) for any other pending plan;
 * - then `status.state`: `AtLatestKnown` is `Healthy`; missing, `UpgradeAvailable` and
 *   `UpgradePending` are `Progressing`; `UpgradeFailed` is `Degraded`; anything else `Unknown`.
 *
 * It judges OLM's resolution and install plans only: whether the installed CSV succeeded is the
 * ClusterServiceVersion's verdict, and deprecation conditions are not health.
 */
export function subscriptionHealth(obj: K8sObject): HealthVerdict {
  const status = statusOf(obj);
  if (!status) return noStatus(obj);
  const installed = stringAt(status, 'installedCSV');
  const current = stringAt(status, 'currentCSV');

  const failures = FAILURES.map((type) => conditionWith(obj, type, 'True')).filter((c) => c !== undefined);
  const [first] = failures;
  if (first)
    return verdict(
      'Degraded',
      first.type,
      failures.map((c) => `${c.type}: ${describeCondition(c)}`).join('; '),
    );
  const missing = conditionWith(obj, 'InstallPlanMissing', 'True');
  if (missing && !installed) return verdict('Degraded', 'InstallPlanMissing', describeCondition(missing));

  const pending = conditionWith(obj, 'InstallPlanPending', 'True');
  const plan = stringAt(objectAt(status, 'installPlanRef'), 'name') ?? 'of this subscription';
  if (pending?.reason === 'RequiresApproval') {
    return installed
      ? verdict(
          'Healthy',
          'UpgradeAwaitingApproval',
          `${installed} is installed; the update to ${current ?? 'a newer CSV'} waits for manual approval of InstallPlan ${plan}`,
        )
      : verdict(
          'Suspended',
          'AwaitingApproval',
          `the first install of ${current ?? 'the operator'} waits for manual approval of InstallPlan ${plan}`,
        );
  }
  if (pending) {
    return verdict(
      'Progressing',
      'InstallPlanPending',
      `InstallPlan ${plan} is pending (${describeCondition(pending)})`,
    );
  }
  return fromState(stringAt(status, 'state'), installed, current);
}

function fromState(
  state: string | undefined,
  installed: string | undefined,
  current: string | undefined,
): HealthVerdict {
  switch (state) {
    case 'AtLatestKnown':
      return verdict(
        'Healthy',
        'AtLatestKnown',
        `${installed ?? current ?? 'the operator'} is installed and up to date`,
      );
    case undefined:
      return verdict(
        'Progressing',
        'Resolving',
        'OLM has not resolved the subscription yet (no status.state)',
      );
    case 'UpgradeAvailable':
    case 'UpgradePending':
      return verdict('Progressing', state, `OLM is installing ${current ?? 'a newer CSV'} (state ${state})`);
    case 'UpgradeFailed':
      return verdict('Degraded', 'UpgradeFailed', `the update to ${current ?? 'a newer CSV'} failed`);
    default:
      return verdict('Unknown', 'UnknownState', `unknown subscription state ${state}`);
  }
}
