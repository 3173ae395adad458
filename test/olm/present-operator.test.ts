import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../../src/olm/catalog/index.js';
import { planDependencies } from '../../src/olm/dependency-plan.js';
import { pathDependencies } from '../../src/olm/path-dependencies.js';
import {
  heldRequirementMeets,
  presentOf,
  successorsOf,
  type NamedCatalog,
} from '../../src/olm/present-operator.js';
import { upgradePath } from '../../src/olm/upgrade-path.js';
import { loadCatalogFixture } from './helpers.js';

// Real community catalogs, reduced to what the resolver reads (test/fixtures/catalogs/PROVENANCE.md).
const ALLOYDB = 'alloydb-omni-operator';
const TOPOLOGY = 'rabbitmq-messaging-topology-operator';
const CLUSTER = 'rabbitmq-cluster-operator';
const alloydb: NamedCatalog = { name: 'alloydb', catalog: await loadCatalogFixture('alloydb-omni-operator') };
const rabbitmq: NamedCatalog = { name: 'rabbitmq', catalog: await loadCatalogFixture('rabbitmq-operators') };
const bundle = (c: NamedCatalog, pkg: string, csv: string) => c.catalog.packages.get(pkg)!.bundles.get(csv)!;
const cluster = (csv: string) => bundle(rabbitmq, CLUSTER, csv);
const latest: NamedCatalog = {
  name: 'testdata',
  catalog: await loadCatalogFixture('registry-testdata-latest'),
};

describe('successorsOf: what a Subscription may move an installed CSV to (one hop)', () => {
  it('is the update candidates of its channel, nearest the head first; nothing without a Subscription', () => {
    const sub = { channel: 'stable', catalog: 'rabbitmq' };
    expect(successorsOf(presentOf(cluster(`${CLUSTER}.v2.0.0`), sub), [rabbitmq])).toEqual([
      { csv: `${CLUSTER}.v2.1.0`, channel: 'stable', catalog: 'rabbitmq' },
    ]);
    expect(successorsOf(presentOf(cluster(`${CLUSTER}.v2.0.0`), undefined), [rabbitmq])).toEqual([]);
    // At the head: nowhere to go. A channel no catalog has: nowhere either.
    expect(successorsOf(presentOf(cluster(`${CLUSTER}.v2.22.3`), sub), [rabbitmq])).toEqual([]);
    const elsewhere = { channel: 'alpha', catalog: undefined };
    expect(successorsOf(presentOf(cluster(`${CLUSTER}.v2.0.0`), elsewhere), [rabbitmq])).toEqual([]);
  });

  it('follows the channel of the catalog that has it', () => {
    const foo = presentOf(bundle(latest, 'foo', 'foo.v0.1.0'), { channel: 'beta', catalog: undefined });
    // foo.v0.2.0 replaces it; foo.v0.3.x do not reach it (OLM never jumps further than one hop).
    expect(successorsOf(foo, [rabbitmq, latest]).map((s) => [s.csv, s.catalog])).toEqual([
      ['foo.v0.2.0', 'testdata'],
    ]);
  });
});

describe('heldRequirementMeets: what the installed CSV required still holds', () => {
  const pkg = (packageName: string, versionRange: string) =>
    ({ type: 'package', packageName, versionRange }) as const;
  const gvk = { type: 'gvk', group: 'cert-manager.io', version: 'v1', kind: 'Certificate' } as const;
  it.each([
    ['the same API', gvk, gvk, true],
    ['another version of the API', gvk, { ...gvk, version: 'v1beta1' }, false],
    [
      'a package range inside the new one',
      pkg('cert-manager', '>=1.12.2'),
      pkg('cert-manager', '>=1.12.0'),
      true,
    ],
    [
      'a package range reaching outside it',
      pkg('cert-manager', '>=1.12.2'),
      pkg('cert-manager', '>=1.13.0'),
      false,
    ],
    ['another package', pkg('cert-manager', '>=1.12.2'), pkg('other', '>=1.12.2'), false],
    ['an API for a package', gvk, pkg('cert-manager', '>=1.12.2'), false],
    ['a range that does not parse', pkg('cert-manager', 'not a range'), pkg('cert-manager', '*'), false],
  ] as const)('%s: %s', (_name, held, req, meets) => {
    expect(heldRequirementMeets(held, req)).toBe(meets);
  });
});

describe('an operator already installed (issue 32, items 15 and 16)', () => {
  it('plans alloydb-omni-operator v1.4.0 and v1.4.1 from an installed v1.3.0: cert-manager is there', () => {
    const path = upgradePath(alloydb.catalog, {
      package: ALLOYDB,
      channel: 'stable',
      from: `${ALLOYDB}.v1.3.0`,
      to: `${ALLOYDB}.v1.4.1`,
    });
    if (!path.ok) throw new Error(path.message);
    const opts = { package: ALLOYDB, hops: path.hops, catalog: alloydb, catalogs: [alloydb] };
    const hops = pathDependencies({ ...opts, installed: `${ALLOYDB}.v1.3.0`, channel: 'stable' });
    expect(hops).toEqual([
      { csv: `${ALLOYDB}.v1.4.0`, joins: [], unmet: [] },
      { csv: `${ALLOYDB}.v1.4.1`, joins: [], unmet: [] },
    ]);
    // Not knowing what is installed, cert-manager's APIs are missing from the catalog for both.
    expect(pathDependencies(opts).map((h) => h.unmet[0]?.message)).toEqual([
      `bundle ${ALLOYDB}.v1.4.0 requires an operator providing an API with group: cert-manager.io, version: v1, kind: Certificate`,
      `bundle ${ALLOYDB}.v1.4.1 requires an operator providing an API with group: cert-manager.io, version: v1, kind: Certificate`,
    ]);
  });

  const topology = bundle(rabbitmq, TOPOLOGY, `${TOPOLOGY}.v1.15.0`);
  const plan = (present: Parameters<typeof planDependencies>[0]['present']) =>
    planDependencies({ root: topology, rootCatalog: 'rabbitmq', catalogs: [rabbitmq], present });

  it('moves rabbitmq-cluster-operator v2.0.0 to v2.1.0, the successor its Subscription allows, never v2.22.3', () => {
    const p = plan([presentOf(cluster(`${CLUSTER}.v2.0.0`), { channel: 'stable', catalog: 'rabbitmq' })]);
    expect(p.unmet).toEqual([]);
    expect(p.joins.map((j) => [j.csv, j.replaces])).toEqual([[`${CLUSTER}.v2.1.0`, `${CLUSTER}.v2.0.0`]]);
  });

  it('cannot plan it when v2.0.0 has no Subscription: OLM keeps that CSV', () => {
    const p = plan([presentOf(cluster(`${CLUSTER}.v2.0.0`), undefined)]);
    expect(p.joins).toEqual([]);
    expect(p.unmet).toEqual([
      {
        bundle: `${TOPOLOGY}.v1.15.0`,
        requirement: { type: 'package', packageName: CLUSTER, versionRange: '>2.0.0' },
        message: `bundle ${TOPOLOGY}.v1.15.0 requires an operator with package: ${CLUSTER} and with version in range: >2.0.0`,
        heldBack: `${CLUSTER}.v2.0.0 is installed and no Subscription references it, so OLM keeps it`,
      },
    ]);
  });

  it('brings the default channel head when nothing of the package is installed', () => {
    expect(plan([]).joins.map((j) => [j.csv, j.replaces])).toEqual([[`${CLUSTER}.v2.22.3`, undefined]]);
  });

  it('leaves an installed operator that already meets the requirement where it is', () => {
    const p = plan([presentOf(cluster(`${CLUSTER}.v2.9.0`), { channel: 'stable', catalog: 'rabbitmq' })]);
    expect(p).toEqual({ joins: [], unmet: [] });
  });

  it('does not take a successor from another channel than the Subscription follows', () => {
    const twoChannels = parseCatalog([{ path: 'c.yaml', text: TWO_CHANNELS }]);
    const c = { name: 'c', catalog: twoChannels };
    const root = twoChannels.packages.get('app')!.bundles.get('app.v1.0.0')!;
    const dep = twoChannels.packages.get('dep')!.bundles.get('dep.v1.0.0')!;
    const on = (channel: string) =>
      planDependencies({
        root,
        rootCatalog: 'c',
        catalogs: [c],
        present: [presentOf(dep, { channel, catalog: 'c' })],
      });
    expect(on('fast').joins.map((j) => [j.csv, j.channel])).toEqual([['dep.v2.0.0', 'fast']]);
    expect(on('stable').unmet.map((u) => u.heldBack)).toEqual([
      'dep.v1.0.0 is installed and its Subscription (channel stable) can move it only to nothing (no update edge from it)',
    ]);
  });
});

/** `dep` 2.0.0 follows 1.0.0 in channel fast only; app requires dep >=2.0.0. */
const TWO_CHANNELS = `
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
  - { type: olm.package.required, value: { packageName: dep, versionRange: '>=2.0.0' } }
---
schema: olm.package
name: dep
defaultChannel: stable
---
schema: olm.channel
package: dep
name: stable
entries: [{ name: dep.v1.0.0 }]
---
schema: olm.channel
package: dep
name: fast
entries: [{ name: dep.v1.0.0 }, { name: dep.v2.0.0, replaces: dep.v1.0.0 }]
---
schema: olm.bundle
name: dep.v1.0.0
package: dep
image: registry.invalid/dep:1
properties:
  - { type: olm.package, value: { packageName: dep, version: 1.0.0 } }
---
schema: olm.bundle
name: dep.v2.0.0
package: dep
image: registry.invalid/dep:2
properties:
  - { type: olm.package, value: { packageName: dep, version: 2.0.0 } }
`;
