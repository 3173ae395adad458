import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HealthStatus } from '../../src/health/types.js';
import { subscriptionHealth } from '../../src/health/subscription.js';
import { obj, readFixture, readObject } from './helpers.js';

interface ArgoCase {
  healthStatus: { status: HealthStatus; message: string };
  inputPath: string;
}

const argo = (readFixture('health/subscription/argo-cd-expected-health.yaml') as { tests: ArgoCase[] }).tests;

/**
 * Where we deliberately disagree with Argo CD (documented in docs/health.md): the test asserts
 * OUR verdict for these files, every other case must equal Argo CD's status.
 */
const OURS: Readonly<Record<string, { status: HealthStatus; reason: string }>> = {
  // A first install with Manual approval waits for a human to approve the InstallPlan: it will not
  // finish on its own, which is what Suspended means (and what we say of the InstallPlan itself,
  // RequiresApproval → Suspended). Argo CD says Progressing, which a wait would time out on.
  'install_plan_manual_upgrade_pending_not_installed_yet.yaml': {
    status: 'Suspended',
    reason: 'AwaitingApproval',
  },
};

/** The reason we give for each fixture, so a change of mind shows up in review. */
const REASONS: Readonly<Record<string, string>> = {
  'first_update_with_status.yaml': 'Resolving',
  'install_plan_pending.yaml': 'InstallPlanPending',
  'catalog_sources_unhealthy.yaml': 'CatalogSourcesUnhealthy',
  'install_plan_missing.yaml': 'AtLatestKnown',
  'install_plan_failed.yaml': 'InstallPlanFailed',
  'resolution_failed.yaml': 'ResolutionFailed',
  'healthy.yaml': 'AtLatestKnown',
  'install_plan_manual_upgrade_pending.yaml': 'UpgradeAwaitingApproval',
  'install_plan_manual_upgrade_pending_not_installed_yet.yaml': 'AwaitingApproval',
};

describe('subscriptionHealth on the Argo CD fixtures', () => {
  it('covers every case of the expectation file', () => {
    expect(argo.map((c) => basename(c.inputPath)).sort()).toEqual(Object.keys(REASONS).sort());
  });

  it.each(argo.map((c) => ({ file: basename(c.inputPath), argo: c.healthStatus.status })))(
    '$file: Argo CD says $argo',
    ({ file, argo: theirs }) => {
      const expected = OURS[file]?.status ?? theirs;
      const v = subscriptionHealth(readObject(`health/subscription/${file}`));
      expect([v.status, v.reason]).toEqual([expected, REASONS[file]]);
    },
  );

  it('differs from Argo CD only where OURS says so', () => {
    for (const [file, ours] of Object.entries(OURS)) {
      const theirs = argo.find((c) => basename(c.inputPath) === file)?.healthStatus.status;
      expect(theirs).toBeDefined();
      expect(ours.status).not.toBe(theirs);
    }
  });

  it('names every failing condition, the first one as reason', () => {
    const v = subscriptionHealth(readObject('health/subscription/resolution_failed.yaml'));
    expect(v.message).toMatch(/^ResolutionFailed: ConstraintsNotSatisfiable: constraints not satisfiable/);
    expect(v.message).toContain(
      '; CatalogSourcesUnhealthy: UnhealthyCatalogSourceFound: targeted catalogsource',
    );
  });

  it('says which update waits for approval', () => {
    const v = subscriptionHealth(readObject('health/subscription/install_plan_manual_upgrade_pending.yaml'));
    expect(v.message).toBe(
      'camel-k-operator.v2.5.1 is installed; the update to camel-k-operator.v2.6.0 waits for manual approval of InstallPlan install-sm4qt',
    );
  });
});

const head = `apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: gitops, namespace: openshift-operators}
spec: {channel: stable, name: openshift-gitops-operator, source: redhat-operators, sourceNamespace: openshift-marketplace}
`;

const inline = [
  { name: 'subscription-no-status', yaml: '', status: 'Unknown', reason: 'NoStatus' },
  {
    name: 'subscription-install-plan-missing-not-installed',
    yaml: `status:
  state: UpgradePending
  currentCSV: gitops.v1.2.0
  conditions:
  - {type: InstallPlanMissing, status: "True", reason: ReferencedInstallPlanNotFound}`,
    status: 'Degraded',
    reason: 'InstallPlanMissing',
  },
  {
    name: 'subscription-install-plan-missing-resolved',
    yaml: `status:
  state: AtLatestKnown
  installedCSV: gitops.v1.2.0
  conditions:
  - {type: InstallPlanMissing, status: "False"}`,
    status: 'Healthy',
    reason: 'AtLatestKnown',
  },
  {
    name: 'subscription-upgrade-installing',
    yaml: `status:
  state: UpgradePending
  installedCSV: gitops.v1.2.0
  currentCSV: gitops.v1.3.0
  conditions:
  - {type: InstallPlanPending, status: "True", reason: Installing}`,
    status: 'Progressing',
    reason: 'InstallPlanPending',
  },
  {
    name: 'subscription-upgrade-available',
    yaml: 'status: {state: UpgradeAvailable, installedCSV: gitops.v1.2.0, currentCSV: gitops.v1.3.0}',
    status: 'Progressing',
    reason: 'UpgradeAvailable',
  },
  {
    name: 'subscription-upgrade-pending-no-condition',
    yaml: 'status: {state: UpgradePending, currentCSV: gitops.v1.3.0}',
    status: 'Progressing',
    reason: 'UpgradePending',
  },
  {
    name: 'subscription-upgrade-failed',
    yaml: 'status: {state: UpgradeFailed, installedCSV: gitops.v1.2.0, currentCSV: gitops.v1.3.0}',
    status: 'Degraded',
    reason: 'UpgradeFailed',
  },
  {
    name: 'subscription-unknown-state',
    yaml: 'status: {state: Sideways}',
    status: 'Unknown',
    reason: 'UnknownState',
  },
  {
    name: 'subscription-deprecated-channel',
    yaml: `status:
  state: AtLatestKnown
  installedCSV: gitops.v1.2.0
  conditions:
  - {type: ChannelDeprecated, status: "True", reason: Deprecated, message: channel stable is deprecated}`,
    status: 'Healthy',
    reason: 'AtLatestKnown',
  },
] as const;

describe('subscriptionHealth', () => {
  it.each(inline)('$name is $status ($reason)', ({ yaml, status, reason }) => {
    const v = subscriptionHealth(obj(head + yaml));
    expect([v.status, v.reason]).toEqual([status, reason]);
  });
});
