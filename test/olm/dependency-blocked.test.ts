import { describe, expect, it } from 'vitest';
import { unresolvableDependency } from '../../src/olm/dependency-blocked.js';
import type { Catalog } from '../../src/olm/catalog/model.js';
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
const TOPOLOGY = 'rabbitmq-messaging-topology-operator';
const CLUSTER = 'rabbitmq-cluster-operator';
const rabbitmq = await loadCatalogFixture('rabbitmq-operators');
const topology = { package: TOPOLOGY, channel: 'stable', pin: `${TOPOLOGY}.v1.15.0` };
/** A catalog with one package of `c`. */
const only = (c: Catalog, pkg: string): Catalog => ({ packages: new Map([[pkg, c.packages.get(pkg)!]]) });

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
    // The rabbitmq topology operator's catalog alone: v1.15.0 newly requires rabbitmq-cluster-operator >2.0.0.
    const topologyOnly = [{ name: 'topology', catalog: only(rabbitmq, TOPOLOGY) }];
    const kept = live(TOPOLOGY, { installedCSV: `${TOPOLOGY}.v1.14.2`, state: 'AtLatestKnown' });
    expect(
      unresolvableDependency({
        live: kept,
        pinned: topology,
        catalogs: topologyOnly,
        namespaceCSVs: [`${TOPOLOGY}.v1.14.2`],
      }),
    ).toBe(
      `OLM keeps ${TOPOLOGY}.v1.14.2: bundle ${TOPOLOGY}.v1.15.0 requires an operator providing an API with group: rabbitmq.com, version: v1beta1, kind: RabbitmqCluster, and no bundle of the catalog files satisfies it, so the next CSV ${TOPOLOGY}.v1.15.0 is never planned`,
    );
    // A plan is offered (UpgradePending): OLM found a way; at the pin: nothing to say.
    const pending = live(TOPOLOGY, { installedCSV: `${TOPOLOGY}.v1.14.2`, state: 'UpgradePending' });
    expect(
      unresolvableDependency({ live: pending, pinned: topology, catalogs: topologyOnly, namespaceCSVs: [] }),
    ).toBeUndefined();
  });

  it('counts the installed CSV’s own requirements as met (they held when it was installed)', () => {
    // foo.v0.2.0 requires what foo.v0.1.0 required (bar <0.1.0, which no catalog bundle on a chain is):
    // since foo.v0.1.0 runs, an operator meeting it is in the namespace, and OLM plans the hop.
    const kept = live('foo', {
      installedCSV: 'foo.v0.1.0',
      currentCSV: 'foo.v0.1.0',
      state: 'AtLatestKnown',
    });
    expect(
      unresolvableDependency({ live: kept, pinned: foo, catalogs, namespaceCSVs: ['foo.v0.1.0'] }),
    ).toBeUndefined();
  });

  it('blocks on a dependency installed without a Subscription that fails the range, not on one its Subscription moves', () => {
    const kept = live(TOPOLOGY, { installedCSV: `${TOPOLOGY}.v1.14.2`, state: 'AtLatestKnown' });
    const namespaceCSVs = [`${TOPOLOGY}.v1.14.2`, `${CLUSTER}.v2.0.0`];
    const all = [{ name: 'rabbitmq', catalog: rabbitmq }];
    expect(unresolvableDependency({ live: kept, pinned: topology, catalogs: all, namespaceCSVs })).toBe(
      `OLM keeps ${TOPOLOGY}.v1.14.2: bundle ${TOPOLOGY}.v1.15.0 requires an operator with package: ${CLUSTER} and with version in range: >2.0.0, and the bundles of the catalog files that satisfy it cannot join: ${CLUSTER}.v2.0.0 is installed and no Subscription references it, so OLM keeps it, so the next CSV ${TOPOLOGY}.v1.15.0 is never planned`,
    );
    // With its Subscription (stable) OLM moves it to v2.1.0 in the same InstallPlan.
    const clusterSub = {
      ...live(CLUSTER, { installedCSV: `${CLUSTER}.v2.0.0` }),
      spec: { name: CLUSTER, channel: 'stable' },
    };
    expect(
      unresolvableDependency({
        live: kept,
        pinned: topology,
        catalogs: all,
        namespaceCSVs,
        namespaceSubscriptions: [kept, clusterSub],
      }),
    ).toBeUndefined();
  });

  it('says nothing when the next hop’s requirements hold (etcd in the namespace meets etcd-app.v1.1.0)', () => {
    const app = live('etcd-app', { installedCSV: 'etcd-app.v1.0.0', state: 'AtLatestKnown' });
    const pinned = { package: 'etcd-app', channel: 'stable', pin: 'etcd-app.v1.1.0' };
    const namespaceCSVs = ['etcd-app.v1.0.0', 'etcdoperator.v0.9.4'];
    expect(unresolvableDependency({ live: app, pinned, catalogs, namespaceCSVs })).toBeUndefined();
  });
});
