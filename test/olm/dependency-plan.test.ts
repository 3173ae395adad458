import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../../src/olm/catalog/index.js';
import { dependencyLookup } from '../../src/olm/dependencies.js';
import { planDependencies } from '../../src/olm/dependency-plan.js';
import type { NamedCatalog } from '../../src/olm/present-operator.js';
import { pathDependencies, renderPathDependencies } from '../../src/olm/path-dependencies.js';
import { upgradePath } from '../../src/olm/upgrade-path.js';
import { loadCatalogFixture } from './helpers.js';

// Real data: operator-registry's testdata catalog (registry-testdata-latest.yaml), whose foo bundles
// require both the Bar API (olm.gvk.required test.bar/v1alpha1) and package bar in `<0.1.0` or
// `<0.2.0` (olm.package.required); every bar bundle on a channel's chain provides the API, none is
// in the range (bar.v0.1.0 is skipped by bar.v0.2.0, so OLM's sortChannel leaves it out).

const latest = await loadCatalogFixture('registry-testdata-latest');
const deps = await loadCatalogFixture('dependencies');
const catalogs: NamedCatalog[] = [
  { name: 'registry-testdata-latest.yaml', catalog: latest },
  { name: 'dependencies.yaml', catalog: deps },
];
const bundle = (c: typeof latest, pkg: string, csv: string) => c.packages.get(pkg)!.bundles.get(csv)!;

describe('dependencyLookup: every requirement holds, a package requirement is package and range together', () => {
  const lookup = dependencyLookup([latest]);
  it('does not take a bar that provides the required API but is outside the required range', () => {
    // foo.v0.2.0: olm.gvk.required Bar v1alpha1 (bar.v1.0.0 provides it) and bar <0.1.0 (it is 1.0.0).
    expect(lookup('bar.v1.0.0', ['foo.v0.2.0'])).toBeUndefined();
    expect(lookup('bar.v0.2.0', ['foo.v0.3.1'])).toBeUndefined();
  });
  it('takes an API provider of another package, which breaks no range', () => {
    const both = dependencyLookup([deps]);
    expect(both('etcdoperator.v0.9.2', ['etcd-app.v1.0.0'])).toBe('etcd-app.v1.0.0');
    expect(both('etcdoperator.v0.9.4', ['etcd-app.v1.1.0'])).toBe('etcd-app.v1.1.0');
  });
});

describe('planDependencies (OLM getBundleVariables + the solver)', () => {
  it('names the requirement nothing in the catalogs satisfies, in OLM words', () => {
    const plan = planDependencies({
      root: bundle(latest, 'foo', 'foo.v0.2.0'),
      rootCatalog: 'registry-testdata-latest.yaml',
      catalogs,
      present: [],
    });
    expect(plan.joins).toEqual([]);
    expect(plan.unmet.map((u) => u.message)).toEqual([
      'bundle foo.v0.2.0 requires an operator with package: bar and with version in range: <0.1.0',
    ]);
  });

  it('brings the default channel head that meets the requirement, from the catalog that has it', () => {
    const plan = planDependencies({
      root: bundle(deps, 'etcd-app', 'etcd-app.v1.1.0'),
      rootCatalog: 'dependencies.yaml',
      catalogs,
      present: [],
    });
    expect(plan.unmet).toEqual([]);
    expect(plan.joins.map((j) => [j.csv, j.channel, j.catalog, j.requiredBy])).toEqual([
      ['etcdoperator.v0.9.4', 'singlenamespace-alpha', 'dependencies.yaml', 'etcd-app.v1.1.0'],
    ]);
  });

  it('needs nothing for a requirement an operator of the namespace meets, and nothing outside its range', () => {
    const root = bundle(deps, 'etcd-app', 'etcd-app.v1.1.0');
    const subscription = { channel: 'singlenamespace-alpha', catalog: 'dependencies.yaml' };
    const etcd = {
      csv: 'etcdoperator.v0.9.2',
      package: 'etcd',
      version: '0.9.2',
      provides: [],
      subscription,
    };
    expect(planDependencies({ root, rootCatalog: undefined, catalogs, present: [etcd] }).joins).toEqual([]);
    // An older etcd out of the range can only move along its Subscription, one hop: no entry of
    // its channel replaces v0.6.1, so OLM keeps it and cannot plan etcd-app.v1.1.0.
    const old = { ...etcd, csv: 'etcdoperator.v0.6.1', version: '0.6.1' };
    const plan = planDependencies({ root, rootCatalog: undefined, catalogs, present: [old] });
    expect(plan.joins).toEqual([]);
    expect(plan.unmet.map((u) => u.heldBack)).toEqual([
      'etcdoperator.v0.6.1 is installed and its Subscription (channel singlenamespace-alpha) can move it only to nothing (no update edge from it)',
    ]);
  });

  it('goes back to a later candidate when the first one leaves another requirement unmet', () => {
    // app needs the API X and package p in <2.0.0: p's head (2.0.0) provides X but fails the range.
    const catalog = parseCatalog([{ path: 'c.yaml', text: BACKTRACK }]);
    const plan = planDependencies({
      root: catalog.packages.get('app')!.bundles.get('app.v1.0.0')!,
      rootCatalog: 'c',
      catalogs: [{ name: 'c', catalog }],
      present: [],
    });
    expect(plan.unmet).toEqual([]);
    expect(plan.joins.map((j) => j.csv)).toEqual(['p.v1.0.0']);
  });
});

describe('pathDependencies', () => {
  it('lists per hop what joins the InstallPlan and what cannot be met', () => {
    const path = upgradePath(latest, { package: 'foo', channel: 'beta', from: undefined, to: 'foo.v0.3.1' });
    if (!path.ok) throw new Error(path.message);
    const hops = pathDependencies({ package: 'foo', hops: path.hops, catalog: catalogs[0]!, catalogs });
    expect(renderPathDependencies(hops)).toEqual([
      '  foo.v0.3.1 cannot be planned: bundle foo.v0.3.1 requires an operator with package: bar and with version in range: <0.2.0, and no bundle of the catalogs satisfies it',
    ]);
    const app = upgradePath(deps, {
      package: 'etcd-app',
      channel: 'stable',
      from: 'etcd-app.v1.0.0',
      to: 'etcd-app.v1.1.0',
    });
    if (!app.ok) throw new Error(app.message);
    const start = {
      csv: 'etcd-app.v1.0.0',
      version: '1.0.0',
      via: ['startingCSV' as const],
      replaces: undefined,
      replacesVersion: undefined,
    };
    const [first, second] = pathDependencies({
      package: 'etcd-app',
      hops: [start, ...app.hops],
      catalog: catalogs[1]!,
      catalogs,
    });
    expect(first?.joins.map((j) => j.csv)).toEqual(['etcdoperator.v0.9.4']);
    // etcd, installed with the first plan, already meets v1.1.0's package range.
    expect(second).toEqual({ csv: 'etcd-app.v1.1.0', joins: [], unmet: [] });
  });
});

const BACKTRACK = `
schema: olm.package
name: app
defaultChannel: stable
---
schema: olm.channel
package: app
name: stable
entries: [{ name: app.v1.0.0 }]
---
schema: olm.bundle
name: app.v1.0.0
package: app
image: registry.invalid/app:1
properties:
  - { type: olm.package, value: { packageName: app, version: 1.0.0 } }
  - { type: olm.gvk.required, value: { group: x.example.com, version: v1, kind: X } }
  - { type: olm.package.required, value: { packageName: p, versionRange: '<2.0.0' } }
---
schema: olm.package
name: p
defaultChannel: stable
---
schema: olm.channel
package: p
name: stable
entries: [{ name: p.v1.0.0 }, { name: p.v2.0.0, replaces: p.v1.0.0 }]
---
schema: olm.bundle
name: p.v1.0.0
package: p
image: registry.invalid/p:1
properties:
  - { type: olm.package, value: { packageName: p, version: 1.0.0 } }
  - { type: olm.gvk, value: { group: x.example.com, version: v1, kind: X } }
---
schema: olm.bundle
name: p.v2.0.0
package: p
image: registry.invalid/p:2
properties:
  - { type: olm.package, value: { packageName: p, version: 2.0.0 } }
  - { type: olm.gvk, value: { group: x.example.com, version: v1, kind: X } }
`;
