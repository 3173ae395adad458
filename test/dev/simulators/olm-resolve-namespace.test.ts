import { beforeAll, describe, expect, it } from 'vitest';
import type { K8sObject } from '../../../src/core/object.js';
import { loadSimulatorCatalog, type SimulatorCatalog } from '../../../src/dev/simulators/olm-catalog.js';
import {
  resolveNamespace,
  type NamespaceResolution,
  type NamespaceSubscription,
} from '../../../src/dev/simulators/olm-resolve-namespace.js';
import type { SubscriptionStatus } from '../../../src/dev/simulators/olm-subscription-status.js';
import { fixturePath } from '../../harness/fixtures.js';

// The decision OLM's syncResolvingNamespace makes for one namespace, over the dependencies fixture
// (etcd-app.v1.1.0 requires the etcd package >=0.9.0 <0.10.0; lonely requires a missing package).
let served: SimulatorCatalog;
beforeAll(async () => {
  served = await loadSimulatorCatalog(fixturePath('catalogs/dependencies.yaml'));
});

const sub = (
  name: string,
  pkg: string,
  channel: string,
  status: SubscriptionStatus = {},
  manual = false,
): NamespaceSubscription => ({
  spec: { name, package: pkg, channel, source: 'deps', sourceNamespace: 'ns', startingCSV: undefined },
  status,
  manual,
});
const csv = (name: string, version: string): [string, K8sObject] => [
  name,
  {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'ClusterServiceVersion',
    metadata: { name },
    spec: { version },
  },
];
const failedBefore = {
  conditions: [
    { type: 'ResolutionFailed', status: 'True', reason: 'ConstraintsNotSatisfiable', message: 'old' },
  ],
};

interface Case {
  name: string;
  subs: NamespaceSubscription[];
  csvs?: [string, K8sObject][];
  planGenerations?: number[];
  expect: (r: NamespaceResolution) => void;
}

const cases: Case[] = [
  {
    name: 'a new Subscription moves to its head, with the dependency its bundle requires, in plan 1',
    subs: [sub('app', 'etcd-app', 'stable')],
    expect: (r) => {
      expect(r.plan?.generation).toBe(1);
      expect(r.plan?.manual).toBe(false);
      expect(r.plan?.moved).toEqual([{ subscription: 'app', csv: 'etcd-app.v1.1.0' }]);
      expect(r.plan?.operators.map((o) => o.csv)).toEqual(['etcd-app.v1.1.0', 'etcdoperator.v0.9.4']);
      expect(r.plan?.operators[1]?.dependency).toEqual({
        of: 'etcd-app.v1.1.0',
        subscription: 'etcd-singlenamespace-alpha-deps-ns',
      });
    },
  },
  {
    name: 'a requirement an operator in the namespace already meets adds nothing',
    subs: [sub('app', 'etcd-app', 'stable')],
    csvs: [csv('etcdoperator.v0.9.2', '0.9.2')],
    expect: (r) => expect(r.plan?.operators.map((o) => o.csv)).toEqual(['etcd-app.v1.1.0']),
  },
  {
    name: 'an unsatisfiable requirement fails every Subscription of the namespace, and nothing moves',
    subs: [sub('app', 'etcd-app', 'stable'), sub('lonely', 'lonely', 'stable')],
    expect: (r) => {
      expect(r.plan).toBeUndefined();
      for (const name of ['app', 'lonely'])
        expect(r.statuses.get(name)?.conditions).toEqual([
          {
            type: 'ResolutionFailed',
            status: 'True',
            reason: 'ConstraintsNotSatisfiable',
            message:
              'constraints not satisfiable: bundle lonely.v1.0.0 requires an operator with package: missing-operator and with version in range: >=1.0.0, subscription lonely exists',
          },
        ]);
    },
  },
  {
    name: 'at the head and installed: no plan, and an old ResolutionFailed is cleared',
    subs: [
      sub('app', 'etcd-app', 'stable', {
        ...failedBefore,
        currentCSV: 'etcd-app.v1.1.0',
        installedCSV: 'etcd-app.v1.1.0',
      }),
    ],
    csvs: [csv('etcd-app.v1.1.0', '1.1.0'), csv('etcdoperator.v0.9.4', '0.9.4')],
    expect: (r) => {
      expect(r.plan).toBeUndefined();
      expect(r.statuses.get('app')?.conditions).toBeUndefined();
    },
  },
  {
    name: "a Subscription whose CSV is already in the namespace (a dependency's) is AtLatestKnown with it",
    subs: [sub('etcd', 'etcd', 'singlenamespace-alpha')],
    csvs: [csv('etcdoperator.v0.9.4', '0.9.4')],
    expect: (r) => {
      expect(r.plan).toBeUndefined();
      expect(r.statuses.get('etcd')).toMatchObject({
        currentCSV: 'etcdoperator.v0.9.4',
        installedCSV: 'etcdoperator.v0.9.4',
        state: 'AtLatestKnown',
      });
    },
  },
  {
    name: 'an installed CSV with an update moves along replaces; one Manual Subscription makes the plan manual; the generation is one past the highest known',
    subs: [
      sub('app', 'etcd-app', 'stable', {
        currentCSV: 'etcd-app.v1.0.0',
        installedCSV: 'etcd-app.v1.0.0',
        installPlanGeneration: 2,
      }),
      sub(
        'etcd',
        'etcd',
        'singlenamespace-alpha',
        { currentCSV: 'etcdoperator.v0.9.4', installedCSV: 'etcdoperator.v0.9.4' },
        true,
      ),
    ],
    csvs: [csv('etcd-app.v1.0.0', '1.0.0'), csv('etcdoperator.v0.9.4', '0.9.4')],
    planGenerations: [1, 4],
    expect: (r) => {
      expect(r.plan).toMatchObject({ generation: 5, manual: true });
      expect(r.plan?.moved).toEqual([{ subscription: 'app', csv: 'etcd-app.v1.1.0' }]);
      expect(r.plan?.operators.map((o) => [o.csv, o.replaces])).toEqual([
        ['etcd-app.v1.1.0', 'etcd-app.v1.0.0'],
      ]);
    },
  },
];

describe('resolveNamespace', () => {
  it.each(cases)('$name', (c) => {
    const input = {
      subscriptions: c.subs,
      csvs: new Map(c.csvs ?? []),
      served: (source: string) => (source === 'ns/deps' ? served : undefined),
      visible: [{ source: 'deps', sourceNamespace: 'ns', served }],
      planGenerations: c.planGenerations ?? [],
    };
    const before = structuredClone(c.subs.map((s) => s.status));
    c.expect(resolveNamespace(input));
    // A decision: the statuses it was given are not changed.
    expect(c.subs.map((s) => s.status)).toEqual(before);
  });
});

describe('resolveNamespace, an update whose dependency cannot be resolved (registry testdata)', () => {
  it('keeps the installed CSV without a condition, as OLM falls back on it; a fresh install fails', async () => {
    // Every foo requires package bar in <0.1.0 or <0.2.0, which no bar on a channel's chain is.
    const testdata = await loadSimulatorCatalog(fixturePath('catalogs/registry-testdata-latest.yaml'));
    const foo = (status: SubscriptionStatus): NamespaceSubscription => ({
      spec: {
        name: 'foo',
        package: 'foo',
        channel: 'beta',
        source: 'td',
        sourceNamespace: 'ns',
        startingCSV: undefined,
      },
      status,
      manual: true,
    });
    const input = (s: NamespaceSubscription, csvs: [string, K8sObject][]) => ({
      subscriptions: [s],
      csvs: new Map(csvs),
      served: (source: string) => (source === 'ns/td' ? testdata : undefined),
      visible: [{ source: 'td', sourceNamespace: 'ns', served: testdata }],
      planGenerations: [],
    });
    const installed = resolveNamespace(
      input(foo({ currentCSV: 'foo.v0.1.0', installedCSV: 'foo.v0.1.0', state: 'AtLatestKnown' }), [
        csv('foo.v0.1.0', '0.1.0'),
      ]),
    );
    expect(installed.plan).toBeUndefined();
    expect(installed.statuses.get('foo')).toEqual({
      currentCSV: 'foo.v0.1.0',
      installedCSV: 'foo.v0.1.0',
      state: 'AtLatestKnown',
    });
    const fresh = resolveNamespace(input(foo({}), []));
    expect(fresh.plan).toBeUndefined();
    expect(fresh.statuses.get('foo')?.conditions?.[0]?.message).toBe(
      'constraints not satisfiable: bundle foo.v0.3.1 requires an operator with package: bar and with version in range: <0.2.0, subscription foo exists',
    );
  });
});
