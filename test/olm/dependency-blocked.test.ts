import { describe, expect, it } from 'vitest';
import { unresolvableDependency } from '../../src/olm/dependency-blocked.js';
import type { SubscriptionLike } from '../../src/olm/olm-objects.js';
import { loadCatalogFixture } from './helpers.js';

const catalogs = [
  { name: 'testdata', catalog: await loadCatalogFixture('registry-testdata-latest') },
  { name: 'deps', catalog: await loadCatalogFixture('dependencies') },
];

const live = (pkg: string, status: Record<string, unknown>): SubscriptionLike => ({
  metadata: { name: pkg, namespace: 'ops' },
  spec: { name: pkg, installPlanApproval: 'Manual' },
  status,
});
const resolutionFailed = (message: string) => ({
  type: 'ResolutionFailed',
  status: 'True',
  reason: 'ConstraintsNotSatisfiable',
  message,
});
const FOO_MESSAGE =
  'constraints not satisfiable: bundle foo.v0.2.0 requires an operator with package: bar and with version in range: <0.1.0, subscription foo exists';
const foo = { package: 'foo', channel: 'beta', pin: 'foo.v0.2.0' };

describe('unresolvableDependency', () => {
  it("reports OLM's ResolutionFailed that names a requirement, unless a catalog source is unhealthy", () => {
    const failed = live('foo', { conditions: [resolutionFailed(FOO_MESSAGE)] });
    expect(unresolvableDependency({ live: failed, pinned: foo, catalogs, namespaceCSVs: [] })).toBe(
      `OLM cannot resolve the namespace: ${FOO_MESSAGE}`,
    );
    const unhealthy = live('foo', {
      conditions: [resolutionFailed(FOO_MESSAGE), { type: 'CatalogSourcesUnhealthy', status: 'True' }],
    });
    expect(
      unresolvableDependency({ live: unhealthy, pinned: foo, catalogs, namespaceCSVs: [] }),
    ).toBeUndefined();
    const noPackage = live('foo', {
      conditions: [resolutionFailed('constraints not satisfiable: no operators found in package foo ...')],
    });
    expect(
      unresolvableDependency({ live: noPackage, pinned: foo, catalogs, namespaceCSVs: [] }),
    ).toBeUndefined();
  });

  it('reports an installed CSV OLM keeps because the next hop has a requirement no catalog file meets', () => {
    const kept = live('foo', {
      installedCSV: 'foo.v0.1.0',
      currentCSV: 'foo.v0.1.0',
      state: 'AtLatestKnown',
    });
    expect(unresolvableDependency({ live: kept, pinned: foo, catalogs, namespaceCSVs: ['foo.v0.1.0'] })).toBe(
      'OLM keeps foo.v0.1.0: bundle foo.v0.2.0 requires an operator with package: bar and with version in range: <0.1.0, and no bundle of the catalog files satisfies it, so the next CSV foo.v0.2.0 is never planned',
    );
    // A plan is offered (UpgradePending): OLM found a way; at the pin: nothing to say.
    const pending = live('foo', { installedCSV: 'foo.v0.1.0', state: 'UpgradePending' });
    expect(
      unresolvableDependency({ live: pending, pinned: foo, catalogs, namespaceCSVs: [] }),
    ).toBeUndefined();
  });

  it('says nothing when the next hop’s requirements hold (etcd in the namespace meets etcd-app.v1.1.0)', () => {
    const app = live('etcd-app', { installedCSV: 'etcd-app.v1.0.0', state: 'AtLatestKnown' });
    const pinned = { package: 'etcd-app', channel: 'stable', pin: 'etcd-app.v1.1.0' };
    const namespaceCSVs = ['etcd-app.v1.0.0', 'etcdoperator.v0.9.4'];
    expect(unresolvableDependency({ live: app, pinned, catalogs, namespaceCSVs })).toBeUndefined();
  });
});
