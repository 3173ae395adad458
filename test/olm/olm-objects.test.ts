import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  isManualApproval,
  OlmObjectInvalidError,
  toInstallPlan,
  toSubscription,
} from '../../src/olm/index.js';
import { parseClusterObject } from '../../src/core/cluster-object.js';
import {
  clusterServiceVersionSchema,
  subscriptionStatusObjectSchema,
} from '../../src/health/olm-status-schemas.js';
import { toClusterServiceVersion } from '../../src/olm/olm-objects.js';
import { fixtureObject } from '../harness/fixtures.js';
import { readFixture } from './helpers.js';

/** The real Subscriptions of test/fixtures/health/subscription (see PROVENANCE.md). */
const REAL_SUBSCRIPTIONS = [
  'catalog_sources_unhealthy',
  'first_update_with_status',
  'healthy',
  'install_plan_failed',
  'install_plan_manual_upgrade_pending',
  'install_plan_manual_upgrade_pending_not_installed_yet',
  'install_plan_missing',
  'install_plan_pending',
  'resolution_failed',
];

/** A CSV as OLM writes its status (fields as in OLM's ClusterServiceVersionStatus). */
const csv = (status: Record<string, unknown>) => ({
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'ClusterServiceVersion',
  metadata: { name: 'camel-k-operator.v2.2.0', namespace: 'ops' },
  spec: { displayName: 'Camel K' },
  status,
});

describe('OLM objects at the edge', () => {
  it('reads real Subscriptions and keeps unknown fields', async () => {
    const sub = toSubscription(
      parse(await readFixture('health/subscription/install_plan_manual_upgrade_pending.yaml')),
    );
    expect(sub.spec).toMatchObject({ name: 'camel-k', channel: 'stable-v2', installPlanApproval: 'Manual' });
    expect(sub.status?.installPlanRef?.name).toBe('install-sm4qt');
    expect(sub.spec['source']).toBe('community-operators');
  });

  it('rejects an InstallPlan without the fields the decision needs, naming it and every problem', () => {
    const bad = { metadata: { name: 'install-x', namespace: 'ops' }, spec: { approval: 'Manual' } };
    expect(() => toInstallPlan(bad)).toThrow(OlmObjectInvalidError);
    try {
      toInstallPlan(bad);
    } catch (e) {
      expect((e as OlmObjectInvalidError).subject).toBe('InstallPlan/ops/install-x');
      expect((e as OlmObjectInvalidError).message).toMatch(
        /spec\.clusterServiceVersionNames: .*; spec\.approved: /,
      );
    }
  });

  it.each(REAL_SUBSCRIPTIONS)(
    'reads the real Subscription %s, for the decision and for the waits',
    (name) => {
      const raw = fixtureObject(`health/subscription/${name}.yaml`);
      const sub = toSubscription(raw);
      const forWaits = parseClusterObject(subscriptionStatusObjectSchema, raw, 'Subscription');
      expect(sub.status).toEqual(raw.status);
      expect(forWaits.status?.installedCSV).toBe(sub.status?.installedCSV);
    },
  );

  it('reads a CSV phase and refuses a status with fields of other types, naming the CSV', () => {
    expect(
      toClusterServiceVersion(csv({ phase: 'Succeeded', reason: 'InstallSucceeded' })).status?.phase,
    ).toBe('Succeeded');
    expect(toClusterServiceVersion({ ...csv({}), status: undefined }).status).toBeUndefined();
    expect(() => toClusterServiceVersion(csv({ phase: 3 }))).toThrow(
      /^ClusterServiceVersion\/ops\/camel-k-operator\.v2\.2\.0: status\.phase: .*expected string/,
    );
    expect(() =>
      parseClusterObject(clusterServiceVersionSchema, csv({ phase: ['x'] }), 'ClusterServiceVersion'),
    ).toThrow(
      expect.objectContaining({
        code: 'ClusterObjectInvalid',
        subject: 'ClusterServiceVersion/ops/camel-k-operator.v2.2.0',
      }),
    );
  });

  it('refuses a Subscription whose installedCSV is not a string, naming it (never the value)', () => {
    const raw = fixtureObject('health/subscription/healthy.yaml');
    const bad = { ...raw, status: { ...(raw.status as object), installedCSV: { secret: 'hunter2' } } };
    expect(() => toSubscription(bad)).toThrow(/status\.installedCSV: /);
    expect(() => toSubscription(bad)).not.toThrow(/hunter2/);
    expect(() => parseClusterObject(subscriptionStatusObjectSchema, bad, 'Subscription')).toThrow(
      `Subscription/${raw.metadata.namespace}/${raw.metadata.name}: unexpected shape: status.installedCSV: `,
    );
  });

  it('installPlanApproval: only the exact string Manual is manual', () => {
    expect(isManualApproval('Manual')).toBe(true);
    for (const v of ['manual', 'Automatic', '', undefined, 'MANUAL']) expect(isManualApproval(v)).toBe(false);
  });
});
