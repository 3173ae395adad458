import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { heldAtPin, toSubscription, type InstallPlanLike } from '../../src/olm/index.js';
import { readFixture } from './helpers.js';

describe('heldAtPin', async () => {
  // Real status: installedCSV camel-k-operator.v2.5.1, currentCSV camel-k-operator.v2.6.0,
  // state UpgradePending, InstallPlan install-sm4qt waiting for manual approval.
  const pending = toSubscription(
    parse(await readFixture('health/subscription/install_plan_manual_upgrade_pending.yaml')),
  );
  // installedCSV = currentCSV = openshift-gitops-operator.v1.2.0, AtLatestKnown.
  const healthy = toSubscription(parse(await readFixture('health/subscription/healthy.yaml')));
  const waiting: InstallPlanLike = {
    metadata: { name: 'install-sm4qt', namespace: 'manuela-data-lake' },
    spec: { clusterServiceVersionNames: ['camel-k-operator.v2.6.0'], approval: 'Manual', approved: false },
    status: { phase: 'RequiresApproval' },
  };

  it('at the pin with the next hop waiting: Healthy, not Progressing', () => {
    expect(heldAtPin(pending, 'camel-k-operator.v2.5.1')).toEqual({
      status: 'Healthy',
      reason: 'HeldAtPin',
      message:
        'at pinned camel-k-operator.v2.5.1; OLM offers camel-k-operator.v2.6.0 in InstallPlan install-sm4qt, left unapproved on purpose',
    });
    expect(heldAtPin(pending, 'camel-k-operator.v2.5.1', waiting)?.reason).toBe('HeldAtPin');
  });

  it('at the pin with nothing pending: Healthy AtPin', () => {
    expect(heldAtPin(healthy, 'openshift-gitops-operator.v1.2.0')).toMatchObject({
      status: 'Healthy',
      reason: 'AtPin',
    });
  });

  it('does not apply before the pin, or once the next hop was approved anyway', () => {
    // Pinned at v2.6.0: the operator still has to get there, ordinary Subscription health applies.
    expect(heldAtPin(pending, 'camel-k-operator.v2.6.0')).toBeUndefined();
    const approved = { ...waiting, spec: { ...waiting.spec, approved: true } };
    expect(heldAtPin(pending, 'camel-k-operator.v2.5.1', approved)).toBeUndefined();
  });
});
