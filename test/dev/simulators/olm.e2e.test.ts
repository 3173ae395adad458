import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../../src/core/object.js';
import {
  catalogSourceHealth,
  clusterServiceVersionHealth,
  customResourceDefinitionHealth,
  installPlanHealth,
  subscriptionHealth,
} from '../../../src/health/index.js';
import { PATHS, list, objectPath } from '../../../src/dev/simulators/api.js';
import { loadSimulatorCatalog, type SyntheticPackage } from '../../../src/dev/simulators/olm-catalog.js';
import { OlmSimulator, type SourcedSyntheticPackage } from '../../../src/dev/simulators/olm.js';
import { useCluster } from '../../harness/cluster.js';
import { fixtureObject, fixturePath } from '../../harness/fixtures.js';
import { get, keysOf, tickUntil, writes } from './helpers.js';

const cluster = useCluster({ namespacePrefix: 'gw-olm' });

const GITOPS: SyntheticPackage = {
  package: 'openshift-gitops-operator',
  channel: 'latest',
  csvs: [
    { name: 'openshift-gitops-operator.v1.11.0', version: '1.11.0', ownedCRDs: [argoCD()] },
    {
      name: 'openshift-gitops-operator.v1.12.0',
      version: '1.12.0',
      replaces: 'openshift-gitops-operator.v1.11.0',
      ownedCRDs: [argoCD()],
    },
  ],
};

function argoCD() {
  return { group: 'argoproj.io', kind: 'ArgoCD', plural: 'argocds', versions: ['v1beta1'] };
}

async function catalogSource(name: string): Promise<void> {
  const ns = cluster.namespace;
  await cluster.client.request('POST', PATHS.catalogSources(ns), {
    body: {
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'CatalogSource',
      metadata: { name, namespace: ns },
      spec: { sourceType: 'grpc', image: 'registry.invalid/catalog:latest', displayName: name },
    },
  });
}

async function subscribe(name: string, spec: Record<string, unknown>): Promise<void> {
  const ns = cluster.namespace;
  await cluster.client.request('POST', PATHS.subscriptions(ns), {
    body: {
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'Subscription',
      metadata: { name, namespace: ns },
      spec: { sourceNamespace: ns, ...spec },
    },
  });
}

const sub = (name: string) => get(cluster.client, objectPath(PATHS.subscriptions(cluster.namespace), name));
const csv = (name: string) => get(cluster.client, objectPath(PATHS.csvs(cluster.namespace), name));
const plans = () => list(cluster.client, PATHS.installPlans(cluster.namespace));
const statusOf = (o: K8sObject) =>
  (o.status ?? {}) as Record<string, unknown> & { conditions?: { type: string; reason?: string }[] };

function gitopsSimulator(extra: readonly SourcedSyntheticPackage[] = []): OlmSimulator {
  return new OlmSimulator(cluster.client, {
    namespaces: [cluster.namespace],
    synthetic: [{ ...GITOPS, source: `${cluster.namespace}/redhat-operators` }, ...extra],
  });
}

describe('OlmSimulator', () => {
  it('installs an Automatic Subscription to AtLatestKnown with its CSV Succeeded and owned CRD Established', async () => {
    await catalogSource('redhat-operators');
    await subscribe('openshift-gitops-operator', {
      name: 'openshift-gitops-operator',
      channel: 'latest',
      source: 'redhat-operators',
      installPlanApproval: 'Automatic',
    });
    const olm = gitopsSimulator();
    const head = 'openshift-gitops-operator.v1.12.0';
    await tickUntil(
      olm,
      async () =>
        statusOf(await csv(head).catch(() => ({}) as K8sObject)).phase === 'Succeeded' ? true : undefined,
      'Succeeded',
    );
    const subscription = await tickUntil(
      olm,
      async () => {
        const s = await sub('openshift-gitops-operator');
        return statusOf(s).state === 'AtLatestKnown' &&
          !statusOf(s).conditions?.some((c) => c.type === 'InstallPlanPending')
          ? s
          : undefined;
      },
      'AtLatestKnown',
    );

    expect(subscriptionHealth(subscription)).toMatchObject({ status: 'Healthy', reason: 'AtLatestKnown' });
    expect(clusterServiceVersionHealth(await csv(head))).toMatchObject({
      status: 'Healthy',
      reason: 'Succeeded',
    });
    const crd = await get(cluster.client, objectPath(PATHS.crds, 'argocds.argoproj.io'));
    expect(customResourceDefinitionHealth(crd)).toMatchObject({ status: 'Healthy', reason: 'Established' });
    const [plan] = await plans();
    expect(installPlanHealth(plan as K8sObject)).toMatchObject({ status: 'Healthy', reason: 'Complete' });
    const source = await get(
      cluster.client,
      objectPath(PATHS.catalogSources(cluster.namespace), 'redhat-operators'),
    );
    expect(catalogSourceHealth(source)).toMatchObject({ status: 'Healthy', reason: 'Ready' });

    // Same keys as a real healthy Subscription (fixture health/subscription/healthy.yaml).
    const real = statusOf(fixtureObject('health/subscription/healthy.yaml'));
    const ours = statusOf(subscription);
    expect(keysOf(ours)).toEqual(keysOf(real));
    expect(ours).toMatchObject({ installedCSV: head, currentCSV: head, installPlanGeneration: 1 });
    for (const key of ['installplan', 'installPlanRef']) expect(keysOf(ours[key])).toEqual(keysOf(real[key]));
    const [realHealth] = real.catalogHealth as object[];
    const [ourHealth] = ours.catalogHealth as object[];
    expect(keysOf(ourHealth)).toEqual(keysOf(realHealth));
    expect(ours.conditions).toEqual([
      {
        type: 'CatalogSourcesUnhealthy',
        status: 'False',
        reason: 'AllCatalogSourcesHealthy',
        message: 'all available catalogsources are healthy',
        lastTransitionTime: expect.any(String),
      },
    ]);
    const csvStatus = statusOf(await csv(head));
    expect(keysOf(csvStatus)).toEqual([
      'conditions',
      'lastTransitionTime',
      'lastUpdateTime',
      'message',
      'phase',
      'reason',
      'requirementStatus',
    ]);
    expect((csvStatus.conditions as unknown as { phase: string }[]).map((c) => c.phase)).toEqual([
      'Pending',
      'InstallReady',
      'Installing',
      'Succeeded',
    ]);

    // Nothing left to do: a pass makes no writes.
    const before = writes(cluster.client);
    await olm.tick();
    expect(writes(cluster.client)).toBe(before);
  });

  it('stops a Manual Subscription at RequiresApproval and proceeds once the plan is approved', async () => {
    await catalogSource('redhat-operators');
    await subscribe('openshift-gitops-operator', {
      name: 'openshift-gitops-operator',
      channel: 'latest',
      source: 'redhat-operators',
      installPlanApproval: 'Manual',
      startingCSV: 'openshift-gitops-operator.v1.11.0',
    });
    const olm = gitopsSimulator();
    const pending = await tickUntil(
      olm,
      async () => {
        const s = await sub('openshift-gitops-operator');
        return statusOf(s).conditions?.some((c) => c.reason === 'RequiresApproval') ? s : undefined;
      },
      'RequiresApproval',
    );
    expect(subscriptionHealth(pending)).toMatchObject({ status: 'Suspended', reason: 'AwaitingApproval' });
    const real = statusOf(
      fixtureObject('health/subscription/install_plan_manual_upgrade_pending_not_installed_yet.yaml'),
    );
    expect(keysOf(statusOf(pending))).toEqual(keysOf(real));
    const [plan] = await plans();
    expect(plan?.spec).toMatchObject({
      approval: 'Manual',
      approved: false,
      clusterServiceVersionNames: ['openshift-gitops-operator.v1.11.0'],
      generation: 1,
    });
    expect(plan?.metadata.name).toMatch(/^install-[a-z0-9]{5}$/);
    expect(installPlanHealth(plan as K8sObject)).toMatchObject({
      status: 'Suspended',
      reason: 'RequiresApproval',
    });

    // More passes change nothing while the plan waits.
    await olm.tick();
    const before = writes(cluster.client);
    await olm.tick();
    expect(writes(cluster.client)).toBe(before);

    await cluster.client.request(
      'PATCH',
      objectPath(PATHS.installPlans(cluster.namespace), plan?.metadata.name ?? ''),
      {
        body: { spec: { approved: true } },
        contentType: 'application/merge-patch+json',
      },
    );
    // Installed, and the next hop (v1.12.0) waits for approval again: the real "upgrade pending" shape.
    const upgrade = await tickUntil(
      olm,
      async () => {
        const s = statusOf(await sub('openshift-gitops-operator'));
        return s.installedCSV === 'openshift-gitops-operator.v1.11.0' &&
          s.currentCSV === 'openshift-gitops-operator.v1.12.0' &&
          s.conditions?.some((c) => c.reason === 'RequiresApproval')
          ? await sub('openshift-gitops-operator')
          : undefined;
      },
      'waiting for the v1.12.0 approval',
    );
    expect(statusOf(upgrade)).toMatchObject({ state: 'UpgradePending', installPlanGeneration: 2 });
    expect(subscriptionHealth(upgrade)).toMatchObject({
      status: 'Healthy',
      reason: 'UpgradeAwaitingApproval',
    });
    expect(keysOf(statusOf(upgrade))).toEqual(
      keysOf(statusOf(fixtureObject('health/subscription/install_plan_manual_upgrade_pending.yaml'))),
    );
    expect(clusterServiceVersionHealth(await csv('openshift-gitops-operator.v1.11.0'))).toMatchObject({
      status: 'Healthy',
    });
  });

  it('resolves two Subscriptions of a namespace into one batched InstallPlan, Manual because one is', async () => {
    await catalogSource('redhat-operators');
    const other: SourcedSyntheticPackage = {
      source: `${cluster.namespace}/redhat-operators`,
      package: 'cincinnati-operator',
      channel: 'v1',
      csvs: [{ name: 'update-service-operator.v5.0.3', version: '5.0.3' }],
    };
    await subscribe('openshift-gitops-operator', {
      name: 'openshift-gitops-operator',
      channel: 'latest',
      source: 'redhat-operators',
    });
    await subscribe('update-service', {
      name: 'cincinnati-operator',
      channel: 'v1',
      source: 'redhat-operators',
      installPlanApproval: 'Manual',
    });
    const olm = gitopsSimulator([other]);
    await olm.tick();
    const all = await plans();
    expect(all).toHaveLength(1);
    const [plan] = all as [K8sObject];
    expect(plan.spec).toMatchObject({
      approval: 'Manual',
      approved: false,
      clusterServiceVersionNames: ['openshift-gitops-operator.v1.12.0', 'update-service-operator.v5.0.3'],
    });
    expect(plan.metadata.ownerReferences?.map((o) => o.name).sort()).toEqual([
      'openshift-gitops-operator',
      'update-service',
    ]);
    expect(statusOf(plan)).toMatchObject({ phase: 'RequiresApproval', catalogSources: ['redhat-operators'] });
    for (const name of ['openshift-gitops-operator', 'update-service']) {
      expect(statusOf(await sub(name))).toMatchObject({
        state: 'UpgradePending',
        installPlanRef: { name: plan.metadata.name },
        installPlanGeneration: 1,
      });
    }
  });

  it('moves a dependency along its own Subscription in the same InstallPlan as the operator that needs it (rabbitmq)', async () => {
    // Topology v1.15.0 requires rabbitmq-cluster-operator >2.0.0: OLM moves the installed cluster
    // operator v2.0.0 one hop, to v2.1.0 (never v2.22.3), in one InstallPlan with topology v1.15.0.
    const TOPOLOGY = 'rabbitmq-messaging-topology-operator';
    const CLUSTER = 'rabbitmq-cluster-operator';
    await catalogSource('community');
    const olm = new OlmSimulator(cluster.client, {
      namespaces: [cluster.namespace],
      catalogs: {
        [`${cluster.namespace}/community`]: await loadSimulatorCatalog(
          fixturePath('catalogs/rabbitmq-operators.yaml'),
        ),
      },
    });
    const manual = { channel: 'stable', source: 'community', installPlanApproval: 'Manual' };
    await subscribe('cluster', { ...manual, name: CLUSTER, startingCSV: `${CLUSTER}.v2.0.0` });
    await subscribe('topology', { ...manual, name: TOPOLOGY, startingCSV: `${TOPOLOGY}.v1.14.2` });
    const approve = (name: string) =>
      cluster.client.request('PATCH', objectPath(PATHS.installPlans(cluster.namespace), name), {
        body: { spec: { approved: true } },
        contentType: 'application/merge-patch+json',
      });
    const planOf = (generation: number) =>
      tickUntil(
        olm,
        async () =>
          (await plans()).find((p) => (p.spec as { generation?: number }).generation === generation),
        `InstallPlan generation ${generation}`,
      );
    const first = await planOf(1);
    expect((first.spec as { clusterServiceVersionNames: string[] }).clusterServiceVersionNames).toEqual([
      `${CLUSTER}.v2.0.0`,
      `${TOPOLOGY}.v1.14.2`,
    ]);
    await approve(first.metadata.name);
    const second = await planOf(2);
    expect((second.spec as { clusterServiceVersionNames: string[] }).clusterServiceVersionNames).toEqual([
      `${CLUSTER}.v2.1.0`,
      `${TOPOLOGY}.v1.15.0`,
    ]);
    for (const [name, csvName] of [
      ['cluster', `${CLUSTER}.v2.1.0`],
      ['topology', `${TOPOLOGY}.v1.15.0`],
    ] as const)
      expect(statusOf(await sub(name))).toMatchObject({
        state: 'UpgradePending',
        currentCSV: csvName,
        installPlanRef: { name: second.metadata.name },
      });
    expect(await plans()).toHaveLength(2);
  });

  it('offers the next hop as an UpgradePending plan when the catalog gains a version, then replaces the old CSV', async () => {
    await catalogSource('testdata');
    const source = `${cluster.namespace}/testdata`;
    const olm = new OlmSimulator(cluster.client, {
      namespaces: [cluster.namespace],
      catalogs: { [source]: await loadSimulatorCatalog(fixturePath('catalogs/registry-testdata-old.yaml')) },
    });
    await subscribe('bar', { name: 'bar', channel: 'alpha', source: 'testdata' });
    await tickUntil(
      olm,
      async () => (statusOf(await sub('bar')).state === 'AtLatestKnown' ? true : undefined),
      'AtLatestKnown',
    );
    expect(statusOf(await sub('bar')).installedCSV).toBe('bar.v0.2.0');

    olm.setCatalog(source, await loadSimulatorCatalog(fixturePath('catalogs/registry-testdata-latest.yaml')));
    await olm.tick();
    const upgrading = await sub('bar');
    expect(statusOf(upgrading)).toMatchObject({
      state: 'UpgradePending',
      installedCSV: 'bar.v0.2.0',
      currentCSV: 'bar.v1.0.0',
      installPlanGeneration: 2,
    });
    expect(subscriptionHealth(upgrading)).toMatchObject({ status: 'Progressing' });
    const next = (await plans()).find((p) => (p.spec as { generation: number }).generation === 2);
    expect(next?.spec).toMatchObject({
      approval: 'Automatic',
      approved: true,
      clusterServiceVersionNames: ['bar.v1.0.0'],
    });

    await tickUntil(
      olm,
      async () => {
        const s = statusOf(await sub('bar'));
        const gone = await csv('bar.v0.2.0').then(
          () => false,
          () => true,
        );
        return s.installedCSV === 'bar.v1.0.0' && s.state === 'AtLatestKnown' && gone ? true : undefined;
      },
      'upgraded with bar.v0.2.0 deleted',
    );
    expect(statusOf(await csv('bar.v1.0.0'))).toMatchObject({ phase: 'Succeeded' });
    const crd = await get(cluster.client, objectPath(PATHS.crds, 'bars.test.bar'));
    expect((crd.spec as { versions: { name: string }[] }).versions.map((v) => v.name).sort()).toEqual([
      'v1',
      'v1alpha1',
    ]);
  });

  it('brings a declared dependency into the same InstallPlan, with the Subscription OLM generates for it', async () => {
    await catalogSource('deps');
    const ns = cluster.namespace;
    const olm = new OlmSimulator(cluster.client, {
      namespaces: [ns],
      catalogs: { [`${ns}/deps`]: await loadSimulatorCatalog(fixturePath('catalogs/dependencies.yaml')) },
    });
    // etcd-app.v1.0.0 requires the EtcdCluster API (olm.gvk.required), which etcd's bundles provide.
    await subscribe('etcd-app', {
      name: 'etcd-app',
      channel: 'stable',
      source: 'deps',
      startingCSV: 'etcd-app.v1.0.0',
    });
    await olm.tick();
    const [plan] = await plans();
    expect(plan?.spec).toMatchObject({
      clusterServiceVersionNames: ['etcd-app.v1.0.0', 'etcdoperator.v0.9.4'],
    });
    const generated = `etcd-singlenamespace-alpha-deps-${ns}`;
    const steps = (plan?.status as { plan: { resource: { kind: string; name: string } }[] }).plan;
    expect(steps.map((st) => `${st.resource.kind}/${st.resource.name}`)).toEqual([
      'CustomResourceDefinition/etcdapps.app.example.com',
      'CustomResourceDefinition/etcdclusters.etcd.database.coreos.com',
      'CustomResourceDefinition/etcdbackups.etcd.database.coreos.com',
      'ClusterServiceVersion/etcd-app.v1.0.0',
      'ClusterServiceVersion/etcdoperator.v0.9.4',
      `Subscription/${generated}`,
    ]);

    await tickUntil(
      olm,
      async () => {
        const dep = await sub(generated).catch(() => undefined);
        return dep &&
          statusOf(dep).state === 'AtLatestKnown' &&
          statusOf(await sub('etcd-app')).state === 'AtLatestKnown'
          ? true
          : undefined;
      },
      'both Subscriptions AtLatestKnown',
    );
    expect(statusOf(await sub(generated))).toMatchObject({ installedCSV: 'etcdoperator.v0.9.4' });
    expect((await sub(generated)).spec).toMatchObject({ name: 'etcd', startingCSV: 'etcdoperator.v0.9.4' });
    // The Subscription is Automatic: OLM then moves etcd-app to v1.1.0, whose olm.package.required
    // (etcd >=0.9.0 <0.10.0) the installed etcdoperator.v0.9.4 already satisfies: a plan of one CSV.
    await tickUntil(
      olm,
      async () => (statusOf(await sub('etcd-app')).installedCSV === 'etcd-app.v1.1.0' ? true : undefined),
      'etcd-app.v1.1.0 installed',
    );
    const names = (await plans())
      .map((p) => p.spec as { generation: number; clusterServiceVersionNames: string[] })
      .sort((a, b) => a.generation - b.generation)
      .map((p) => p.clusterServiceVersionNames);
    expect(names).toEqual([['etcd-app.v1.0.0', 'etcdoperator.v0.9.4'], ['etcd-app.v1.1.0']]);
    for (const name of ['etcd-app.v1.1.0', 'etcdoperator.v0.9.4']) {
      await tickUntil(
        olm,
        async () => (statusOf(await csv(name)).phase === 'Succeeded' ? true : undefined),
        name,
      );
    }
  });

  it('fails resolution like OLM when a declared dependency cannot be satisfied (real registry testdata)', async () => {
    await catalogSource('testdata');
    const ns = cluster.namespace;
    const olm = new OlmSimulator(cluster.client, {
      namespaces: [ns],
      catalogs: {
        [`${ns}/testdata`]: await loadSimulatorCatalog(fixturePath('catalogs/registry-testdata-latest.yaml')),
      },
    });
    // foo's bundles require package bar in `<0.1.0` (or `<0.2.0`); the oldest bar is 0.1.0.
    await subscribe('foo', { name: 'foo', channel: 'beta', source: 'testdata', startingCSV: 'foo.v0.2.0' });
    await olm.tick();
    const failed = statusOf(await sub('foo')).conditions?.find((c) => c.type === 'ResolutionFailed') as
      { reason?: string; message?: string } | undefined;
    expect(failed).toMatchObject({
      reason: 'ConstraintsNotSatisfiable',
      message:
        'constraints not satisfiable: bundle foo.v0.2.0 requires an operator with package: bar and with version in range: <0.1.0, subscription foo exists',
    });
    expect(await plans()).toEqual([]);
  });

  it('reports ResolutionFailed like OLM when the package is not in the catalog', async () => {
    await catalogSource('redhat-operators');
    await subscribe('missing', { name: 'no-such-operator', channel: 'stable', source: 'redhat-operators' });
    const olm = gitopsSimulator();
    await olm.tick();
    const s = await sub('missing');
    expect(statusOf(s).conditions).toContainEqual({
      type: 'ResolutionFailed',
      status: 'True',
      reason: 'ConstraintsNotSatisfiable',
      message:
        'constraints not satisfiable: no operators found in package no-such-operator in the catalog referenced by subscription missing, subscription missing exists',
    });
    expect(subscriptionHealth(s)).toMatchObject({ status: 'Degraded', reason: 'ResolutionFailed' });
    expect(await plans()).toHaveLength(0);
  });
});
