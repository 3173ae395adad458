import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { platformHooks, type OpenShiftDecisions } from '../../src/reconcile/domains.js';
import { ClusterSession } from '../../src/reconcile/cluster-session.js';
import { observeAndPlan } from '../../src/reconcile/observe-and-plan.js';
import { applyObserved } from '../../src/reconcile/apply-observed.js';
import type { ChangeSet } from '../../src/apply/changeset.js';
import type { ApplyEvent } from '../../src/apply/apply-events.js';
import { KubeClient } from '../../src/cluster/client.js';
import { GroundworkError } from '../../src/core/errors.js';
import { mergeGraphs, graphFromCincinnati, type UpdateGraph } from '../../src/cluster-version/graph.js';
import { ClusterVersionTarget } from '../../src/cluster-version/target.js';
import { MachineConfig, MachineConfigPool } from '../../src/machine-config/index.js';
import { parseCatalog } from '../../src/olm/catalog/index.js';
import type { Catalog } from '../../src/olm/catalog/model.js';
import { PlatformOperator } from '../../src/olm/constructs/platform-operator.js';
import {
  createClusterOperators,
  installClusterVersion,
  setClusterOperatorCondition,
} from '../../src/dev/simulators/cvo-install.js';
import { CvoSimulator } from '../../src/dev/simulators/cvo.js';
import { McoSimulator } from '../../src/dev/simulators/mco.js';
import { catalogFromFiles } from '../../src/dev/simulators/olm-catalog.js';
import { OlmSimulator } from '../../src/dev/simulators/olm.js';
import type { Simulator } from '../../src/dev/simulators/loop.js';
import type { SynthResult } from '../../src/render/synth/synthesize.js';
import type { MaintenanceWindow } from '../../src/core/window.js';
import {
  auditedWrites,
  auditOffset,
  eventually,
  useCluster,
  useDedicatedControlPlane,
} from '../harness/cluster.js';
import { fixtureUpdateService } from '../dev/simulators/helpers.js';
import { UpdateService, parseCincinnati } from '../../src/dev/simulators/cincinnati.js';
import type { CvoSimulatorOptions } from '../../src/dev/simulators/cvo.js';
import { fixturePath } from '../harness/fixtures.js';
import { synthPlatform } from '../harness/engine.js';
import type { Construct } from 'constructs';

// A control plane of its own: these tests create ClusterOperators and pools an OpenShift cluster has once.
const dedicated = useDedicatedControlPlane();
const cluster = useCluster({ namespacePrefix: 'gw-sem', controlPlane: dedicated });
const running: Simulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});
/**
 * Each test's Groundwork session (user agent `groundwork-e2e`, what the audit log checks) and the
 * simulators' client, fresh for every test (a session keeps what it observed) and closed after it.
 */
let s: ClusterSession;
let simClient: KubeClient;
beforeEach(async () => {
  s = await session();
  simClient = await simulatorsClient();
});
afterEach(() => {
  s?.client.close();
  simClient?.close();
});

const KEPLER = fixturePath('catalogs/kepler-operator.yaml');
const REV = 'main@sha1:2222222222222222222222222222222222222222';

/** The real kepler catalog cut off after `last` (a state of the catalog before newer versions appeared). */
function keplerUpTo(last: string): { path: string; text: string }[] {
  const order = [
    'kepler-operator.v0.20.0',
    'kepler-operator.v0.21.0',
    'kepler-operator.v0.22.0',
    'kepler-operator.v0.23.0',
    'kepler-operator.v0.24.0',
  ];
  const keep = new Set(order.slice(0, order.indexOf(last) + 1));
  const docs = parseAllDocuments(readFileSync(KEPLER, 'utf8')).map(
    (d) => d.toJS() as { schema: string; name: string; entries?: { name: string }[] },
  );
  const kept = docs
    .filter((d) => d.schema !== 'olm.bundle' || keep.has(d.name))
    .map((d) =>
      d.schema === 'olm.channel' ? { ...d, entries: d.entries!.filter((e) => keep.has(e.name)) } : d,
    );
  return [{ path: `kepler-upto-${last}.yaml`, text: kept.map((d) => `---\n${stringify(d)}`).join('') }];
}

async function session(): Promise<ClusterSession> {
  return new ClusterSession(
    await KubeClient.load({ kubeconfig: cluster.kubeconfig, userAgent: 'groundwork-e2e' }),
  );
}

async function simulatorsClient(): Promise<KubeClient> {
  return KubeClient.load({ kubeconfig: cluster.kubeconfig, userAgent: 'openshift-simulators' });
}

function synth(build: (scope: Construct) => void, minor = '4.16'): Promise<SynthResult> {
  return synthPlatform(build, { name: 'sem', overlay: cluster.namespace, openshiftVersion: minor });
}

async function apply(
  s: ClusterSession,
  result: SynthResult,
  opts: {
    catalogs?: Catalog[];
    graphs?: UpdateGraph[];
    now?: () => Date;
    timeoutMs?: number;
    events?: ApplyEvent[];
    /** Told what the OpenShift hooks decided (as the agent publishes it in its status). */
    publish?: (decided: OpenShiftDecisions) => void;
  } = {},
): Promise<ChangeSet> {
  const observed = await observeAndPlan(s, result, { revision: REV });
  return applyObserved(s, observed, {
    revision: REV,
    wait: true,
    timeoutMs: opts.timeoutMs ?? 60_000,
    hooks: platformHooks(
      { catalogs: opts.catalogs ?? [], graphs: opts.graphs ?? [] },
      { ...(opts.now ? { now: opts.now } : {}), ...(opts.publish ? { publish: opts.publish } : {}) },
    ),
    ...(opts.events ? { listener: (e) => opts.events!.push(e) } : {}),
  });
}

async function catalogSource(client: KubeClient, ns: string, name: string): Promise<void> {
  await client.request('POST', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/catalogsources`, {
    body: {
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'CatalogSource',
      metadata: { name, namespace: ns },
      spec: { sourceType: 'grpc', image: 'registry.invalid/index:latest' },
    },
  });
}

/**
 * A CatalogSource `name` in `ns` and an OLM simulator for `ns` serving `files` as that catalog
 * (with `more` options), ticking every 100 ms; stopped after the test.
 */
async function startOlm(
  client: KubeClient,
  ns: string,
  name: string,
  files: readonly { path: string; text: string }[],
  more: {
    synthetic?: NonNullable<ConstructorParameters<typeof OlmSimulator>[1]>['synthetic'];
    /** Not ticking yet: one pass (the CatalogSource READY), and the test starts it. */
    held?: boolean;
  } = {},
): Promise<OlmSimulator> {
  await catalogSource(client, ns, name);
  const olm = new OlmSimulator(client, {
    namespaces: [ns],
    catalogs: { [`${ns}/${name}`]: catalogFromFiles(files) },
    ...(more.synthetic ? { synthetic: more.synthetic } : {}),
  });
  if (more.held) await olm.tick();
  else olm.start(100);
  running.push(olm);
  return olm;
}

const subscription = (s: ClusterSession, ns: string, name: string) =>
  s.client.request<{ status?: { installedCSV?: string; state?: string } }>(
    'GET',
    `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions/${name}`,
  );

describe('pinned operator versions through InstallPlan approval', () => {
  it('installs a pinned operator at its pin and keeps it there while newer versions appear', async () => {
    const ns = cluster.namespace;
    const olm = await startOlm(simClient, ns, 'community', keplerUpTo('kepler-operator.v0.22.0'));
    const catalog = parseCatalog([{ path: KEPLER, text: readFileSync(KEPLER, 'utf8') }]);
    const desired = await synth(
      (p) =>
        new PlatformOperator(p, 'kepler', {
          package: 'kepler-operator',
          channel: 'alpha',
          pin: 'kepler-operator.v0.21.0',
          namespace: ns,
          createNamespace: false,
          installMode: 'AllNamespaces',
          catalog: { name: 'community', namespace: ns },
        }),
    );
    const changes = await apply(s, desired, { catalogs: [catalog] });
    expect(changes.error?.message ?? '').toBe('');
    expect((await subscription(s, ns, 'kepler-operator')).status?.installedCSV).toBe(
      'kepler-operator.v0.21.0',
    );

    // Newer versions appear: OLM offers the next hop, which is past the pin and stays unapproved.
    olm.setCatalog(`${ns}/community`, catalogFromFiles(keplerUpTo('kepler-operator.v0.24.0')));
    await eventually(
      async () =>
        (await subscription(s, ns, 'kepler-operator')).status?.state === 'UpgradePending' ? true : undefined,
      20_000,
      'the next hop offered',
    );
    const decided: OpenShiftDecisions = {};
    const again = await apply(s, desired, {
      catalogs: [catalog],
      publish: (d) => Object.assign(decided, d),
    });
    expect(again.error?.message ?? '').toBe('');
    // What the agent would publish: the pin, the installed CSV, and the next hop left waiting, and why.
    expect(decided.operatorPins).toMatchObject([
      {
        subscription: `${ns}/kepler-operator`,
        pin: 'kepler-operator.v0.21.0',
        installed: 'kepler-operator.v0.21.0',
        installPlans: [{ decision: 'wait', reason: 'BeyondPin' }],
      },
    ]);
    expect(decided.operatorPins![0]!.installPlans[0]!.message).toContain('kepler-operator.v0.22.0');
    const plans = await s.client.request<{
      items: { spec: { approved: boolean; clusterServiceVersionNames: string[] } }[];
    }>('GET', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`);
    const next = plans.items.find((p) =>
      p.spec.clusterServiceVersionNames.includes('kepler-operator.v0.22.0'),
    );
    expect(next?.spec.approved).toBe(false);
    // Two whole reconcile passes of OLM after the apply: the unapproved plan installs nothing.
    await olm.stop();
    await olm.tick();
    await olm.tick();
    expect((await subscription(s, ns, 'kepler-operator')).status?.installedCSV).toBe(
      'kepler-operator.v0.21.0',
    );
  });

  it('walks a pin bump hop by hop, one approved InstallPlan per hop', async () => {
    const ns = cluster.namespace;
    await startOlm(simClient, ns, 'community', keplerUpTo('kepler-operator.v0.24.0'));
    const catalog = parseCatalog([{ path: KEPLER, text: readFileSync(KEPLER, 'utf8') }]);
    const at = (pin: string) =>
      synth(
        (p) =>
          new PlatformOperator(p, 'kepler', {
            package: 'kepler-operator',
            channel: 'alpha',
            pin,
            namespace: ns,
            createNamespace: false,
            installMode: 'AllNamespaces',
            catalog: { name: 'community', namespace: ns },
          }),
      );
    expect(
      (await apply(s, await at('kepler-operator.v0.21.0'), { catalogs: [catalog] })).error,
    ).toBeUndefined();
    const events: ApplyEvent[] = [];
    const bumped = await apply(s, await at('kepler-operator.v0.23.0'), { catalogs: [catalog], events });
    expect(bumped.error?.message ?? '').toBe('');
    expect((await subscription(s, ns, 'kepler-operator')).status?.installedCSV).toBe(
      'kepler-operator.v0.23.0',
    );
    const approvals = events.filter(
      (e) => e.type === 'notice' && e.message.startsWith('approved InstallPlan'),
    );
    expect(approvals).toHaveLength(2); // 0.21.0 -> 0.22.0 -> 0.23.0
  });

  it('refuses an unreachable pin before approving or writing anything', async () => {
    const ns = cluster.namespace;
    const catalog = parseCatalog([{ path: KEPLER, text: readFileSync(KEPLER, 'utf8') }]);
    const desired = await synth(
      (p) =>
        new PlatformOperator(p, 'kepler', {
          package: 'kepler-operator',
          channel: 'alpha',
          pin: 'kepler-operator.v0.99.0',
          namespace: ns,
          createNamespace: false,
          installMode: 'AllNamespaces',
          catalog: { name: 'community', namespace: ns },
        }),
    );
    const offset = auditOffset(dedicated.auditLog);
    const changes = await apply(s, desired, { catalogs: [catalog] });
    expect((changes.error as { code?: string }).code).toBe('PreflightFailed');
    expect(changes.error?.message).toContain('kepler-operator.v0.99.0');
    expect(auditedWrites(offset, 'groundwork-e2e', { log: dedicated.auditLog })).toEqual([]);
  });

  /** The other-operator package (one CSV, Automatic, no pin) beside kepler in `ns`'s community catalog. */
  const otherOperator = (ns: string) => ({
    source: `${ns}/community`,
    package: 'other-operator',
    channel: 'stable',
    csvs: [{ name: 'other-operator.v1.0.0', version: '1.0.0', ownedCRDs: [] }],
  });
  /** Kepler pinned at v0.21.0 and, with `other`, the unpinned other-operator in the same namespace. */
  const keplerAndOther = (ns: string, other = true) =>
    synth((p) => {
      new PlatformOperator(p, 'kepler', {
        package: 'kepler-operator',
        channel: 'alpha',
        pin: 'kepler-operator.v0.21.0',
        namespace: ns,
        createNamespace: false,
        installMode: 'AllNamespaces',
        catalog: { name: 'community', namespace: ns },
      });
      if (other)
        new PlatformOperator(p, 'other', {
          package: 'other-operator',
          channel: 'stable',
          namespace: ns,
          createNamespace: false,
          installMode: 'AllNamespaces',
          catalog: { name: 'community', namespace: ns },
        });
    });
  const subscriptionNames = async (ns: string) =>
    (
      await s.client.request<{ items: { metadata: { name: string } }[] }>(
        'GET',
        `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions`,
      )
    ).items.map((i) => i.metadata.name);

  it("never approves a batched InstallPlan that carries another operator's CSV, and says how to fix it", async () => {
    const ns = cluster.namespace;
    // OLM resolves whenever it likes: held until both Subscriptions exist, it batches them in one plan.
    const olm = await startOlm(simClient, ns, 'community', keplerUpTo('kepler-operator.v0.24.0'), {
      synthetic: [otherOperator(ns)],
      held: true,
    });
    const catalog = parseCatalog([{ path: KEPLER, text: readFileSync(KEPLER, 'utf8') }]);
    // Two operators in one namespace: the pinned Manual one makes every InstallPlan there Manual and batched.
    const desired = await keplerAndOther(ns);
    expect(desired.warnings.map((w) => w.message).join()).toContain('InstallPlan');
    // The apply stops as soon as OLM has made the batched InstallPlan; the limit only bounds how
    // long the simulator may take to make it on a loaded machine.
    const applying = apply(s, desired, { catalogs: [catalog], timeoutMs: 60_000 });
    await eventually(
      async () => ((await subscriptionNames(ns)).length === 2 ? true : undefined),
      20_000,
      'both Subscriptions written',
    );
    olm.start(100);
    const changes = await applying;
    expect(changes.error?.message).toContain('its own namespace');
    const plans = await s.client.request<{
      items: { spec: { approved: boolean; clusterServiceVersionNames: string[] } }[];
    }>('GET', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`);
    expect(plans.items.length).toBeGreaterThan(0);
    expect(plans.items.every((p) => !p.spec.approved)).toBe(true);
    expect(plans.items[0]!.spec.clusterServiceVersionNames.sort()).toEqual([
      'kepler-operator.v0.21.0',
      'other-operator.v1.0.0',
    ]);
  });

  it("fails at once, with the fix, when OLM made an unpinned operator's own plan Manual for a pin beside it", async () => {
    const ns = cluster.namespace;
    await startOlm(simClient, ns, 'community', keplerUpTo('kepler-operator.v0.21.0'), {
      synthetic: [otherOperator(ns)],
    });
    const catalog = parseCatalog([{ path: KEPLER, text: readFileSync(KEPLER, 'utf8') }]);
    // Kepler first, at its pin; then the other operator, resolved alone, in a plan OLM makes Manual.
    const first = await apply(s, await keplerAndOther(ns, false), { catalogs: [catalog] });
    expect(first.error?.message ?? '').toBe('');
    const changes = await apply(s, await keplerAndOther(ns), { catalogs: [catalog], timeoutMs: 60_000 });
    expect((changes.error as { code?: string }).code).not.toBe('WaitTimeout');
    expect(changes.error?.message).toContain('OLM made this InstallPlan Manual');
    expect(changes.error?.message).toContain(
      'give the pinned operator kepler-operator its own namespace (with its own OperatorGroup), or pin other-operator too',
    );
    const plans = await s.client.request<{
      items: { spec: { approved: boolean; clusterServiceVersionNames: string[] } }[];
    }>('GET', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`);
    const others = plans.items.filter((p) =>
      p.spec.clusterServiceVersionNames.includes('other-operator.v1.0.0'),
    );
    expect(others.map((p) => [p.spec.clusterServiceVersionNames, p.spec.approved])).toEqual([
      [['other-operator.v1.0.0'], false],
    ]);
  });
});

describe('a pinned operator whose bundle declares dependencies', () => {
  it('approves the InstallPlan that brings the declared dependency with the pinned CSV, and installs both', async () => {
    const ns = cluster.namespace;
    const DEPS = fixturePath('catalogs/dependencies.yaml');
    await startOlm(simClient, ns, 'deps', [{ path: DEPS, text: readFileSync(DEPS, 'utf8') }]);
    const catalog = parseCatalog([{ path: DEPS, text: readFileSync(DEPS, 'utf8') }]);
    const desired = await synth(
      (p) =>
        new PlatformOperator(p, 'app', {
          package: 'etcd-app',
          channel: 'stable',
          pin: 'etcd-app.v1.0.0',
          namespace: ns,
          createNamespace: false,
          installMode: 'AllNamespaces',
          catalog: { name: 'deps', namespace: ns },
        }),
    );
    const events: ApplyEvent[] = [];
    const changes = await apply(s, desired, { catalogs: [catalog], events });
    expect(changes.error?.message ?? '').toBe('');
    expect((await subscription(s, ns, 'etcd-app')).status?.installedCSV).toBe('etcd-app.v1.0.0');
    const plans = await s.client.request<{
      items: { spec: { approved: boolean; clusterServiceVersionNames: string[] } }[];
    }>('GET', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`);
    const installing = plans.items.find((p) => p.spec.clusterServiceVersionNames.includes('etcd-app.v1.0.0'));
    expect(installing?.spec).toMatchObject({
      approved: true,
      clusterServiceVersionNames: ['etcd-app.v1.0.0', 'etcdoperator.v0.9.4'],
    });
    // The next hop (etcd-app.v1.1.0, past the pin) may already be offered: it stays unapproved.
    expect(plans.items.filter((p) => p !== installing).every((p) => !p.spec.approved)).toBe(true);
    expect(JSON.stringify(events)).toContain('etcdoperator.v0.9.4 (required by etcd-app.v1.0.0)');
    // OLM's generated Subscription for the dependency takes the CSV the plan installed.
    await eventually(
      async () =>
        (await subscription(s, ns, `etcd-singlenamespace-alpha-deps-${ns}`).catch(() => undefined))?.status
          ?.installedCSV === 'etcdoperator.v0.9.4'
          ? true
          : undefined,
      20_000,
      'the dependency Subscription at etcdoperator.v0.9.4',
    );
  });

  it('stops with DependencyUnresolvable, not at the timeout, when OLM cannot resolve the pinned CSV (registry testdata)', async () => {
    const ns = cluster.namespace;
    const TESTDATA = fixturePath('catalogs/registry-testdata-latest.yaml');
    const files = [{ path: TESTDATA, text: readFileSync(TESTDATA, 'utf8') }];
    await startOlm(simClient, ns, 'testdata', files);
    // foo.v0.2.0 requires package bar in <0.1.0; every bar on a channel's chain is newer.
    const desired = await synth(
      (p) =>
        new PlatformOperator(p, 'foo', {
          package: 'foo',
          channel: 'beta',
          pin: 'foo.v0.2.0',
          namespace: ns,
          createNamespace: false,
          installMode: 'AllNamespaces',
          catalog: { name: 'testdata', namespace: ns },
        }),
    );
    // Without the check, the stage waits its 60 s and fails with WaitTimeout.
    const changes = await apply(s, desired, { catalogs: [parseCatalog(files)], timeoutMs: 60_000 });
    expect(changes.error instanceof GroundworkError ? changes.error.code : changes.error).toBe(
      'DependencyUnresolvable',
    );
    expect(changes.error?.message).toContain(
      'bundle foo.v0.2.0 requires an operator with package: bar and with version in range: <0.1.0',
    );
  });

  it('stops with DependencyUnresolvable when OLM keeps the installed CSV because the next hop needs an operator no catalog has', async () => {
    const ns = cluster.namespace;
    // A variant of dependencies.yaml: etcd-app.v1.1.0 requires a package no catalog carries.
    const DEPS = fixturePath('catalogs/dependencies.yaml');
    const text = readFileSync(DEPS, 'utf8').replace(
      "value: { packageName: etcd, versionRange: '>=0.9.0 <0.10.0' }",
      "value: { packageName: etcd-restore-operator, versionRange: '>=1.0.0' }",
    );
    const files = [{ path: 'dependencies-variant.yaml', text }];
    const olm = await startOlm(simClient, ns, 'deps', files);
    const catalog = parseCatalog(files);
    const pinned = (pin: string) =>
      synth(
        (p) =>
          new PlatformOperator(p, 'app', {
            package: 'etcd-app',
            channel: 'stable',
            pin,
            namespace: ns,
            createNamespace: false,
            installMode: 'AllNamespaces',
            catalog: { name: 'deps', namespace: ns },
          }),
      );
    const first = await apply(s, await pinned('etcd-app.v1.0.0'), { catalogs: [catalog] });
    expect(first.error?.message ?? '').toBe('');
    // OLM has no update for etcd-app.v1.0.0 it can resolve: it stays AtLatestKnown, with no condition.
    await olm.stop();
    await olm.tick();
    expect((await subscription(s, ns, 'etcd-app')).status).toMatchObject({
      installedCSV: 'etcd-app.v1.0.0',
      state: 'AtLatestKnown',
    });
    olm.start(100);
    // Without the check, the stage waits its 60 s for a hop OLM never plans (WaitTimeout).
    const bump = await apply(s, await pinned('etcd-app.v1.1.0'), { catalogs: [catalog], timeoutMs: 60_000 });
    expect(bump.error instanceof GroundworkError ? bump.error.code : bump.error).toBe(
      'DependencyUnresolvable',
    );
    expect(bump.error?.message).toContain(
      'OLM keeps etcd-app.v1.0.0: bundle etcd-app.v1.1.0 requires an operator with package: etcd-restore-operator',
    );
  });

  it('stops with DependencyUnresolvable when the next hop needs an installed operator moved that no Subscription references (rabbitmq)', async () => {
    // Topology v1.15.0 requires rabbitmq-cluster-operator >2.0.0. v2.0.0 is installed and its
    // Subscription is gone: OLM keeps that CSV, never plans v1.15.0 and says nothing (issue 32, item 16).
    const ns = cluster.namespace;
    const RABBITMQ = fixturePath('catalogs/rabbitmq-operators.yaml');
    const files = [{ path: RABBITMQ, text: readFileSync(RABBITMQ, 'utf8') }];
    await startOlm(simClient, ns, 'community', files);
    const olmApi = `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}`;
    await simClient.request('POST', `${olmApi}/subscriptions`, {
      body: {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'Subscription',
        metadata: { name: 'cluster', namespace: ns },
        spec: {
          name: 'rabbitmq-cluster-operator',
          channel: 'stable',
          source: 'community',
          sourceNamespace: ns,
          startingCSV: 'rabbitmq-cluster-operator.v2.0.0',
          installPlanApproval: 'Manual',
        },
      },
    });
    const plan = await eventually(async () => {
      const list = await simClient.request<{ items: { metadata: { name: string } }[] }>(
        'GET',
        `${olmApi}/installplans`,
      );
      return list.items[0];
    });
    await simClient.request('PATCH', `${olmApi}/installplans/${plan.metadata.name}`, {
      body: { spec: { approved: true } },
      contentType: 'application/merge-patch+json',
    });
    await eventually(async () =>
      (await subscription(s, ns, 'cluster')).status?.installedCSV === 'rabbitmq-cluster-operator.v2.0.0'
        ? true
        : undefined,
    );
    await simClient.request('DELETE', `${olmApi}/subscriptions/cluster`);
    const catalog = parseCatalog(files);
    const pinned = (pin: string) =>
      synth(
        (p) =>
          new PlatformOperator(p, 'topology', {
            package: 'rabbitmq-messaging-topology-operator',
            channel: 'stable',
            pin,
            namespace: ns,
            createNamespace: false,
            installMode: 'AllNamespaces',
            catalog: { name: 'community', namespace: ns },
          }),
      );
    const first = await apply(s, await pinned('rabbitmq-messaging-topology-operator.v1.14.2'), {
      catalogs: [catalog],
    });
    expect(first.error?.message ?? '').toBe('');
    // Without the check, the stage waits its 60 s for a hop OLM never plans (WaitTimeout); before
    // Groundwork knew that OLM keeps such a CSV, it planned cluster-operator v2.22.3 and waited too.
    const bump = await apply(s, await pinned('rabbitmq-messaging-topology-operator.v1.15.0'), {
      catalogs: [catalog],
      timeoutMs: 60_000,
    });
    expect(bump.error instanceof GroundworkError ? bump.error.code : bump.error).toBe(
      'DependencyUnresolvable',
    );
    expect(bump.error?.message).toContain(
      'rabbitmq-cluster-operator.v2.0.0 is installed and no Subscription references it, so OLM keeps it',
    );
  });
});

describe('graph-aware cluster version steps', () => {
  const graph = () =>
    mergeGraphs(
      ['stable-4.8.json', 'stable-4.9.json'].map((f) =>
        graphFromCincinnati(readFileSync(fixturePath(`update-graphs/${f}`), 'utf8'), f),
      ),
    );

  async function installed(
    name: string,
    version: string,
    channel: string,
    opts: {
      updateService?: UpdateService;
      transientFailing?: CvoSimulatorOptions['transientFailing'];
      updateTicks?: number;
    } = {},
  ) {
    const g = graph();
    const updateService = opts.updateService ?? fixtureUpdateService('stable-4.8.json', 'stable-4.9.json');
    const cv = await installClusterVersion(simClient, { name, version, channel, updateService });
    await createClusterOperators(simClient, { clusterVersion: cv, version });
    const cvo = new CvoSimulator(simClient, {
      name,
      updateService,
      updateTicks: opts.updateTicks ?? 2,
      ...(opts.transientFailing ? { transientFailing: opts.transientFailing } : {}),
    });
    cvo.start(100);
    running.push(cvo);
    return { g };
  }

  const target = (
    name: string,
    channel: string,
    version: string,
    more: { failingGraceSeconds?: number } = {},
  ) => synth((p) => new ClusterVersionTarget(p, 'version', { name, channel, version, ...more }), '4.9');

  it("waits through Failing for an operator Degraded within oc's 40 minutes, past the Failing grace, and completes", async () => {
    const name = `cv-${cluster.namespace}`;
    // 40 passes of 100 ms: longer than the 2 s between wait reports and the target's 2 s Failing
    // grace, which applies only to a Failing no operator condition explains.
    const { g } = await installed(name, '4.8.2', 'stable-4.9', {
      transientFailing: { afterPasses: 1, passes: 40 },
    });
    const events: ApplyEvent[] = [];
    const changes = await apply(s, await target(name, 'stable-4.9', '4.8.54', { failingGraceSeconds: 2 }), {
      graphs: [g],
      events,
    });
    expect(changes.error?.message ?? '').toBe('');
    const pending = events.flatMap((e) => (e.type === 'wait-progress' ? e.pending : []));
    expect(pending.join('\n')).toMatch(
      /update to 4\.8\.54 is failing: Cluster operator .* is degraded.*; waiting within oc's thresholds: .* is degraded \(RolloutDegraded\) for \d+s: failing the update in (40m|39m\d+s)/,
    );
    const cv = await s.client.request<{ status: { history: { version: string; state: string }[] } }>(
      'GET',
      `/apis/config.openshift.io/v1/clusterversions/${name}`,
    );
    expect(cv.status.history[0]).toMatchObject({ version: '4.8.54', state: 'Completed' });
  });

  it("calls the update failed as soon as it is in flight when an operator has been Degraded past oc's 40 minutes", async () => {
    const name = `cv-${cluster.namespace}`;
    // 100 passes of 100 ms in flight: without oc's thresholds the update completes.
    const { g } = await installed(name, '4.8.2', 'stable-4.9', { updateTicks: 100 });
    // Written with a clock 41 minutes behind: Degraded=True since 41 minutes ago.
    const degraded = { type: 'Degraded', reason: 'NodeController_MasterNodesReady' } as const;
    await setClusterOperatorCondition(
      simClient,
      'kube-apiserver',
      { ...degraded, status: 'True', message: 'NodeControllerDegraded: The master nodes not ready' },
      () => new Date(Date.now() - 41 * 60_000),
    );
    try {
      const changes = await apply(s, await target(name, 'stable-4.9', '4.8.54'), { graphs: [g] });
      expect(changes.error?.message).toMatch(
        /blocked \(OperatorsFailing\): update to 4\.8\.54 is failing: kube-apiserver is degraded \(NodeController_MasterNodesReady\) for 41m(\d+s)?: past oc's 40m limit/,
      );
    } finally {
      // ClusterOperators outlive the test: leave kube-apiserver as the next test expects it.
      await setClusterOperatorCondition(simClient, 'kube-apiserver', {
        ...degraded,
        status: 'False',
        reason: 'AsExpected',
      });
    }
  });

  it('requests no step the live cluster does not offer, even when the repository graph has it', async () => {
    const name = `cv-${cluster.namespace}`;
    // The update service disagrees with the repository's graph: it offers nothing from 4.8.2.
    const response = parseCincinnati(readFileSync(fixturePath('update-graphs/stable-4.9.json'), 'utf8'), 'x');
    const from = response.nodes.findIndex((n) => n.version === '4.8.2');
    const disagreeing = UpdateService.from({
      ...response,
      edges: response.edges.filter(([a]) => a !== from),
    });
    const { g } = await installed(name, '4.8.2', 'stable-4.9', { updateService: disagreeing });
    const changes = await apply(s, await target(name, 'stable-4.9', '4.8.54'), {
      graphs: [g],
      timeoutMs: 3_000,
    });
    expect(changes.error?.message).toContain(
      "step 1/1 4.8.2 -> 4.8.54 is in the repository's update graph, but the update service offers 4.8.54 to this cluster in neither status.availableUpdates nor status.conditionalUpdates",
    );
    const cv = await s.client.request<{ spec: { desiredUpdate?: unknown } }>(
      'GET',
      `/apis/config.openshift.io/v1/clusterversions/${name}`,
    );
    expect(cv.spec.desiredUpdate).toBeUndefined();
  });

  it('walks a target across a minor one step at a time, each step Completed and Available before the next', async () => {
    const name = `cv-${cluster.namespace}`;
    const { g } = await installed(name, '4.8.2', 'stable-4.9');
    const events: ApplyEvent[] = [];
    const changes = await apply(s, await target(name, 'stable-4.9', '4.9.53'), { graphs: [g], events });
    expect(changes.error?.message ?? '').toBe('');
    const cv = await s.client.request<{ status: { history: { version: string; state: string }[] } }>(
      'GET',
      `/apis/config.openshift.io/v1/clusterversions/${name}`,
    );
    expect(cv.status.history.map((h) => `${h.version} ${h.state}`)).toEqual([
      '4.9.53 Completed',
      '4.8.54 Completed',
      '4.8.2 Completed',
    ]);
    const requested = events
      .filter((e) => e.type === 'notice' && e.stage === 'cluster-version')
      .map((e) => (e as { message: string }).message);
    expect(requested).toEqual([
      `ClusterVersion/${name}: step 1/2 4.8.2 -> 4.8.54`,
      `ClusterVersion/${name}: step 2/2 4.8.54 -> 4.9.53`,
    ]);
  });

  it('takes the patch step, waits on Upgradeable=False before the minor step (naming the ClusterOperator), and goes on once it clears', async () => {
    const name = `cv-${cluster.namespace}`;
    const { g } = await installed(name, '4.8.2', 'stable-4.9');
    const upgradeable = (status: 'True' | 'False') =>
      setClusterOperatorCondition(simClient, 'etcd', {
        type: 'Upgradeable',
        status,
        reason: status === 'False' ? 'AdminAckRequired' : 'AsExpected',
        message: status === 'False' ? 'etcd backups need checking' : '',
      });
    await upgradeable('False');
    const cvPath = `/apis/config.openshift.io/v1/clusterversions/${name}`;
    const history = async () =>
      (
        await s.client.request<{ status: { history: { version: string; state: string }[] } }>('GET', cvPath)
      ).status.history.map((h) => `${h.version} ${h.state}`);
    try {
      const events: ApplyEvent[] = [];
      const applying = apply(s, await target(name, 'stable-4.9', '4.9.53'), { graphs: [g], events });
      // The wait is reported while the patch step is Completed and the minor step not requested.
      const held = await eventually(async () => {
        const pending = events.flatMap((e) => (e.type === 'wait-progress' ? e.pending : []));
        const line = pending.find((p) => p.includes('Upgradeable=False holds the minor'));
        return line ? { line, history: await history() } : undefined;
      }, 60_000);
      // Numbered against the whole walk of this apply: the patch step was step 1.
      expect(held.line).toMatch(/step 2\/2 4\.8\.54 -> 4\.9\.53: etcd \(AdminAckRequired\)/);
      expect(held.history).toEqual(['4.8.54 Completed', '4.8.2 Completed']);
      await upgradeable('True');
      const changes = await applying;
      expect(changes.error?.message ?? '').toBe('');
      expect(await history()).toEqual(['4.9.53 Completed', '4.8.54 Completed', '4.8.2 Completed']);
    } finally {
      await upgradeable('True');
    }
  });

  it.each([
    ['a skipped minor', 'stable-4.9', '4.10.3'],
    ['a downgrade', 'stable-4.8', '4.8.1'],
    ['a target outside the channel', 'stable-4.9', '4.7.60'],
  ])('refuses %s before any write', async (_what, channel, version) => {
    const name = `cv-${cluster.namespace}`;
    const { g } = await installed(name, '4.8.2', 'stable-4.8');
    const offset = auditOffset(dedicated.auditLog);
    const desired = await synth(
      (p) => new ClusterVersionTarget(p, 'version', { name, channel, version }),
      '4.9',
    ).catch((e: Error) => e);
    if (desired instanceof Error) {
      // The construct already refuses it at synth time (e.g. a version its channel does not offer).
      expect(desired.message).toMatch(/not offered by channel|validation/);
    } else {
      const changes = await apply(s, desired, { graphs: [g] });
      expect((changes.error as { code?: string } | undefined)?.code).toBe('PreflightFailed');
    }
    expect(auditedWrites(offset, 'groundwork-e2e', { log: dedicated.auditLog })).toEqual([]);
  });
});

describe('pool-aware machine config rollouts', () => {
  /**
   * The MCO simulator playing `pool` (two nodes, a pass every 100 ms, stopped after the test), the
   * pool's API path, and the platform of that pool (with `props`) and one MachineConfig writing
   * `/etc/motd` into it.
   */
  function mcoPool(pool: string, props: { maintenanceWindows?: MaintenanceWindow[] } = {}) {
    const mco = new McoSimulator(simClient, { pools: [pool], nodes: { [pool]: 2 } });
    mco.start(100);
    running.push(mco);
    const desired = (contents: string, more: { kernelType?: 'default' } = {}) =>
      synth((p) => {
        const mcp = new MachineConfigPool(p, 'pool', { name: pool, inheritsWorker: false, ...props });
        new MachineConfig(p, 'motd', { pool: mcp, files: [{ path: '/etc/motd', contents }], ...more });
      });
    return { mco, desired, path: `/apis/machineconfiguration.openshift.io/v1/machineconfigpools/${pool}` };
  }

  it('keeps a change outside its maintenance window pending, and applies it inside the window', async () => {
    const { desired, path } = mcoPool(`w${cluster.namespace.slice(-6)}`, {
      maintenanceWindows: [{ days: ['Sat'], start: '02:00', duration: '2h', timezone: 'UTC' }],
    });
    const saturday3am = () => new Date('2026-11-21T03:00:00Z');
    const monday = () => new Date('2026-11-23T12:00:00Z');
    // First apply inside the window: the pool is created and rolled.
    expect((await apply(s, await desired('v1\n'), { now: saturday3am })).error?.message ?? '').toBe('');
    // A change on a Monday: the pool is paused and the change waits (pending, not failed).
    const events: ApplyEvent[] = [];
    const monday1 = await apply(s, await desired('v2\n'), { now: monday, events });
    expect(monday1.error?.message ?? '').toBe('');
    expect(monday1.pending.map((p) => p.message).join()).toMatch(/maintenance window/);
    const paused = await s.client.request<{
      spec: { paused?: boolean };
      status: { updatedMachineCount: number; machineCount: number };
    }>('GET', path);
    expect(paused.spec.paused).toBe(true);
    // Inside the window the pool is unpaused and the change rolls out.
    const inWindow = await apply(s, await desired('v2\n'), { now: saturday3am });
    expect(inWindow.error?.message ?? '').toBe('');
    expect(inWindow.pending).toEqual([]);
    const done = await s.client.request<{
      spec: { paused?: boolean };
      status: { updatedMachineCount: number; machineCount: number };
    }>('GET', path);
    expect(done.spec.paused).toBe(false);
    expect(done.status.updatedMachineCount).toBe(done.status.machineCount);
  });

  it('finishes a MachineConfig change that renders to the same content without waiting for a new rendered name', async () => {
    const { mco, desired, path } = mcoPool(`s${cluster.namespace.slice(-6)}`);
    const readPool = () =>
      s.client.request<{
        spec: { configuration: { name: string } };
        status: { configuration: { name: string } };
      }>('GET', path);
    expect((await apply(s, await desired('hello\n'))).error?.message ?? '').toBe('');
    const before = await readPool();
    // An explicit kernelType 'default' changes the MachineConfig; the MCO merges an unset kernelType
    // to 'default' too, so the rendered configuration (and its content-hashed name) stays the same.
    const changes = await apply(s, await desired('hello\n', { kernelType: 'default' }), {
      timeoutMs: 20_000,
    });
    expect(
      changes.entries.filter((e) => e.ref.kind === 'MachineConfig' && e.action === 'configured'),
    ).toHaveLength(1);
    expect(changes.error?.message ?? '').toBe('');
    await mco.stop();
    await mco.tick();
    const after = await readPool();
    expect(after.spec.configuration.name).toBe(before.spec.configuration.name);
    expect(after.status.configuration.name).toBe(after.spec.configuration.name);
  });

  it('waits out a RenderDegraded the MCO wrote before it saw the MachineConfigs, and finishes the rollout', async () => {
    const pool = `r${cluster.namespace.slice(-6)}`;
    const { mco, desired, path } = mcoPool(pool);
    expect((await apply(s, await desired('hello\n'))).error?.message ?? '').toBe('');
    await mco.stop();
    // What the render controller writes when it syncs the pool before its informer holds the pool's
    // MachineConfigs; it requeues and clears it on its next sync (here: once the simulator runs again).
    const live = await s.client.request<{ status: { conditions: { type: string }[] } }>('GET', path);
    const message = `Failed to render configuration for pool ${pool}: no MachineConfigs found matching selector machineconfiguration.openshift.io/role=${pool}`;
    await s.client.request('PUT', `${path}/status`, {
      body: {
        ...live,
        status: {
          ...live.status,
          conditions: live.status.conditions.map((c) =>
            c.type === 'RenderDegraded' || c.type === 'Degraded'
              ? { ...c, status: 'True', message: c.type === 'Degraded' ? '' : message }
              : c,
          ),
        },
      },
    });
    const restart = setTimeout(() => mco.start(100), 1_000);
    try {
      const changes = await apply(s, await desired('changed\n'), { timeoutMs: 20_000 });
      expect(changes.error?.message ?? '').toBe('');
    } finally {
      clearTimeout(restart);
    }
    const done = await s.client.request<{
      status: { conditions: { type: string; status: string }[]; updatedMachineCount: number };
    }>('GET', path);
    expect(done.status.conditions.find((c) => c.type === 'RenderDegraded')?.status).toBe('False');
    expect(done.status.updatedMachineCount).toBe(2);
  });

  it('stops the stage before writing on a pool the MCO would never write (a negative machine count), naming the pool and the field', async () => {
    const pool = `n${cluster.namespace.slice(-6)}`;
    const { mco, desired, path } = mcoPool(pool);
    try {
      expect((await apply(s, await desired('hello\n'))).error?.message ?? '').toBe('');
      await mco.stop();
      // The CRD types machineCount as an integer, with no minimum: the apiserver keeps -1.
      const live = await s.client.request<{ status: Record<string, unknown> }>('GET', path);
      await s.client.request('PUT', `${path}/status`, {
        body: { ...live, status: { ...live.status, machineCount: -1 } },
      });
      const changes = await apply(s, await desired('changed\n'), { timeoutMs: 10_000 });
      expect(changes.error).toMatchObject({
        code: 'ClusterObjectInvalid',
        subject: `MachineConfigPool/${pool}`,
        message: expect.stringMatching(/status\.machineCount: /),
      });
      expect(changes.entries.filter((e) => e.ref.kind === 'MachineConfig')).toEqual([]);
    } finally {
      // Other tests here list every pool: this one must not outlive the test.
      await s.client.request('DELETE', path).catch(() => undefined);
    }
  });

  it("stops the rollout of a Degraded pool with the MCO's message", async () => {
    const pool = `d${cluster.namespace.slice(-6)}`;
    const { mco, desired } = mcoPool(pool);
    expect((await apply(s, await desired('hello\n'))).error?.message ?? '').toBe('');
    mco.degradeNode(pool, 'failed to drain node: pod-disruption budget blocks eviction');
    const changes = await apply(s, await desired('changed\n'), { timeoutMs: 30_000 });
    expect((changes.error as { code?: string }).code).toBe('WaitFailed');
    expect(changes.error?.message).toContain('pod-disruption budget blocks eviction');
  });
});
