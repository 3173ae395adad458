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
  it("fails when even the installed CSV's own requirement is unmet, as OLM weighs every CSV's constraints; a fresh install fails", async () => {
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
    expect(installed.statuses.get('foo')?.conditions?.[0]?.message).toBe(
      'constraints not satisfiable: bundle foo.v0.2.0 requires an operator with package: bar and with version in range: <0.1.0, subscription foo exists',
    );
    // Fresh: every entry of the channel is a candidate, head first; none can be resolved.
    const fresh = resolveNamespace(input(foo({}), []));
    expect(fresh.plan).toBeUndefined();
    expect(fresh.statuses.get('foo')?.conditions?.[0]?.message).toBe(
      'constraints not satisfiable: bundle foo.v0.3.1 requires an operator with package: bar and with version in range: <0.2.0, subscription foo exists',
    );
  });
});

describe('resolveNamespace with an operator installed (rabbitmq, issue 32 item 16)', () => {
  // Derived from the real community catalogs: topology v1.15.0 and later require
  // rabbitmq-cluster-operator >2.0.0; the cluster operator's channel goes v2.0.0 -> v2.1.0 -> ... -> v2.22.3.
  const TOPOLOGY = 'rabbitmq-messaging-topology-operator';
  const CLUSTER = 'rabbitmq-cluster-operator';
  let rabbitmq: SimulatorCatalog;
  beforeAll(async () => {
    rabbitmq = await loadSimulatorCatalog(fixturePath('catalogs/rabbitmq-operators.yaml'));
  });
  const rsub = (
    name: string,
    pkg: string,
    status: SubscriptionStatus,
    startingCSV?: string,
  ): NamespaceSubscription => ({
    spec: { name, package: pkg, channel: 'stable', source: 'community', sourceNamespace: 'ns', startingCSV },
    status,
    manual: true,
  });
  const at = (csvName: string): SubscriptionStatus => ({
    currentCSV: csvName,
    installedCSV: csvName,
    state: 'AtLatestKnown',
  });
  const resolve = (subs: NamespaceSubscription[], csvs: [string, K8sObject][]) =>
    resolveNamespace({
      subscriptions: subs,
      csvs: new Map(csvs),
      served: (source: string) => (source === 'ns/community' ? rabbitmq : undefined),
      visible: [{ source: 'community', sourceNamespace: 'ns', served: rabbitmq }],
      planGenerations: [],
    });
  const topologyAt = rsub('topology', TOPOLOGY, at(`${TOPOLOGY}.v1.14.2`));
  const installed: [string, K8sObject][] = [
    csv(`${TOPOLOGY}.v1.14.2`, '1.14.2'),
    csv(`${CLUSTER}.v2.0.0`, '2.0.0'),
  ];

  it("moves both operators in one InstallPlan: the cluster operator to v2.1.0 (its Subscription's successor), never v2.22.3", () => {
    const r = resolve([rsub('cluster', CLUSTER, at(`${CLUSTER}.v2.0.0`)), topologyAt], installed);
    expect(r.plan?.moved).toEqual([
      { subscription: 'cluster', csv: `${CLUSTER}.v2.1.0` },
      { subscription: 'topology', csv: `${TOPOLOGY}.v1.15.0` },
    ]);
    expect(r.plan?.operators.map((o) => [o.csv, o.replaces])).toEqual([
      [`${CLUSTER}.v2.1.0`, `${CLUSTER}.v2.0.0`],
      [`${TOPOLOGY}.v1.15.0`, `${TOPOLOGY}.v1.14.2`],
    ]);
  });

  it('keeps topology at v1.14.2 without a condition when v2.0.0 has no Subscription (OLM keeps that CSV)', () => {
    const r = resolve([topologyAt], installed);
    expect(r.plan).toBeUndefined();
    expect(r.statuses.get('topology')).toEqual(at(`${TOPOLOGY}.v1.14.2`));
  });

  it('installs a new topology Subscription at the newest entry it can resolve, and fails one pinned past it', () => {
    const alone: [string, K8sObject][] = [csv(`${CLUSTER}.v2.0.0`, '2.0.0')];
    const fresh = resolve([rsub('topology', TOPOLOGY, {})], alone);
    expect(fresh.plan?.moved).toEqual([{ subscription: 'topology', csv: `${TOPOLOGY}.v1.14.2` }]);
    const pinned = resolve([rsub('topology', TOPOLOGY, {}, `${TOPOLOGY}.v1.15.0`)], alone);
    expect(pinned.plan).toBeUndefined();
    expect(pinned.statuses.get('topology')?.conditions?.[0]?.message).toBe(
      `constraints not satisfiable: bundle ${TOPOLOGY}.v1.15.0 requires an operator with package: ${CLUSTER} and with version in range: >2.0.0, subscription topology exists`,
    );
  });

  it('does not weigh a CSV on its way out (replaced by another CSV of the namespace)', () => {
    const replacing = {
      ...csv(`${CLUSTER}.v2.1.0`, '2.1.0')[1],
      spec: { version: '2.1.0', replaces: `${CLUSTER}.v2.0.0` },
    };
    const r = resolve(
      [
        rsub('cluster', CLUSTER, at(`${CLUSTER}.v2.1.0`)),
        rsub('topology', TOPOLOGY, at(`${TOPOLOGY}.v1.15.0`)),
      ],
      [
        csv(`${CLUSTER}.v2.0.0`, '2.0.0'),
        [`${CLUSTER}.v2.1.0`, replacing],
        csv(`${TOPOLOGY}.v1.15.0`, '1.15.0'),
      ],
    );
    expect(r.statuses.get('cluster')?.conditions).toBeUndefined();
    expect(r.plan?.moved.map((m) => m.csv)).toEqual([`${CLUSTER}.v2.2.0`, `${TOPOLOGY}.v1.16.0`]);
  });
});
