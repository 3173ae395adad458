import { ApiError } from '../../cluster/api-error.js';
import { KubeClient } from '../../cluster/client.js';
import { dataPath } from '../../core/data-dir.js';
import { PATHS } from './api.js';
import { createClusterOperators, installClusterVersion } from './cvo-install.js';
import { CvoSimulator } from './cvo.js';
import { McoSimulator } from './mco.js';
import { loadSimulatorCatalog, mergeCatalogs, type SyntheticPackage } from './olm-catalog.js';
import { OlmSimulator } from './olm.js';
import { UpdateService, type CincinnatiGraph } from './cincinnati.js';
import { updateServiceGraph } from './update-service.js';

/** What an OpenShift cluster has before any platform is applied, as the simulators need it. */
interface SimulatedOpenShiftOptions {
  kubeconfig: string;
  /** Version the "installer" leaves the cluster at. @default '4.14.38' */
  version?: string;
  /** `spec.channel` at install. @default 'stable-4.14' */
  channel?: string;
  /** FBC directories/files served by the `community-operators` CatalogSource (merged; `[]`: an empty catalog). @default not served */
  communityCatalogs?: string[];
  /** Packages served by `redhat-operators` (no FBC files for them). @default OpenShift GitOps and cert-manager */
  redhatPackages?: SyntheticPackage[];
  /** Update service responses. @default the graph-data channel files shipped in data/update-graphs, meshed */
  graph?: CincinnatiGraph;
  /** Simulator pass interval. @default 250 */
  intervalMs?: number;
  /** CVO passes per update. @default 3 */
  updateTicks?: number;
}

/** The packages `redhat-operators` serves in the simulation, with the CRDs their operands need. */
export const REDHAT_PACKAGES: SyntheticPackage[] = [
  {
    package: 'openshift-gitops-operator',
    channel: 'latest',
    csvs: [
      {
        name: 'openshift-gitops-operator.v1.13.1',
        version: '1.13.1',
        ownedCRDs: [{ group: 'argoproj.io', kind: 'ArgoCD', plural: 'argocds', versions: ['v1beta1'] }],
      },
      {
        name: 'openshift-gitops-operator.v1.14.0',
        version: '1.14.0',
        replaces: 'openshift-gitops-operator.v1.13.1',
        ownedCRDs: [{ group: 'argoproj.io', kind: 'ArgoCD', plural: 'argocds', versions: ['v1beta1'] }],
      },
    ],
  },
  {
    package: 'openshift-cert-manager-operator',
    channel: 'stable-v1',
    csvs: [
      {
        name: 'cert-manager-operator.v1.14.0',
        version: '1.14.0',
        ownedCRDs: [
          {
            group: 'operator.openshift.io',
            kind: 'CertManager',
            plural: 'certmanagers',
            versions: ['v1alpha1'],
          },
        ],
      },
    ],
  },
];

/**
 * A local control plane made to look like a freshly installed OpenShift cluster, with OLM, the CVO
 * and the MCO played by simulators: `openshift-marketplace` with the `redhat-operators` and
 * `community-operators` CatalogSources, `openshift-operators` with its `global-operators`
 * OperatorGroup, ClusterVersion `version` and the 4.14 ClusterOperators, the `master` and `worker`
 * pools with their base MachineConfigs. For the quick start and e2e tests; never for a real cluster.
 */
export class SimulatedOpenShift {
  private constructor(
    readonly client: KubeClient,
    readonly olm: OlmSimulator,
    readonly cvo: CvoSimulator,
    readonly mco: McoSimulator,
    readonly updateService: UpdateService,
  ) {}

  static async start(opts: SimulatedOpenShiftOptions): Promise<SimulatedOpenShift> {
    // The simulators write as the operators would, under their own name (field manager = user agent).
    const client = await KubeClient.load({ kubeconfig: opts.kubeconfig, userAgent: 'openshift-simulators' });
    const updateService = UpdateService.from(
      opts.graph ?? (await updateServiceGraph(dataPath('update-graphs', 'graph-data'))),
    );
    const version = opts.version ?? '4.14.38';
    await baseline(client, { version, channel: opts.channel ?? 'stable-4.14', updateService });
    // Every directory given is served by the one `community-operators` source (a package in two: the later wins).
    const loaded = await Promise.all((opts.communityCatalogs ?? []).map((c) => loadSimulatorCatalog(c)));
    // An empty list serves an empty catalog (the source is READY, as on a cluster), none: not served.
    const empty = { catalog: { packages: new Map() }, ownedCRDs: new Map() };
    const community = opts.communityCatalogs ? loaded.reduce(mergeCatalogs, empty) : undefined;
    const olm = new OlmSimulator(client, {
      catalogs: community ? { 'openshift-marketplace/community-operators': community } : {},
      synthetic: (opts.redhatPackages ?? REDHAT_PACKAGES).map((p) => ({
        ...p,
        source: 'openshift-marketplace/redhat-operators',
      })),
    });
    const cvo = new CvoSimulator(client, { updateService, updateTicks: opts.updateTicks ?? 3 });
    const mco = new McoSimulator(client, {});
    const world = new SimulatedOpenShift(client, olm, cvo, mco, updateService);
    for (const sim of [olm, cvo, mco]) sim.start(opts.intervalMs ?? 250);
    return world;
  }

  /** Stops the simulators (the cluster state stays). */
  async stop(): Promise<void> {
    await Promise.all([this.olm.stop(), this.cvo.stop(), this.mco.stop()]);
    this.client.close();
  }
}

async function baseline(
  client: KubeClient,
  opts: { version: string; channel: string; updateService: UpdateService },
): Promise<void> {
  const create = async (path: string, body: object) => {
    try {
      await client.request('POST', path, { body });
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 409)) throw err;
    }
  };
  for (const name of ['openshift-marketplace', 'openshift-operators', 'openshift-config']) {
    await create('/api/v1/namespaces', { metadata: { name } });
  }
  await create('/apis/operators.coreos.com/v1/namespaces/openshift-operators/operatorgroups', {
    apiVersion: 'operators.coreos.com/v1',
    kind: 'OperatorGroup',
    metadata: { name: 'global-operators', namespace: 'openshift-operators' },
    spec: {},
  });
  for (const [name, display] of [
    ['redhat-operators', 'Red Hat Operators'],
    ['community-operators', 'Community Operators'],
  ] as const) {
    await create(PATHS.catalogSources('openshift-marketplace'), {
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'CatalogSource',
      metadata: { name, namespace: 'openshift-marketplace' },
      spec: {
        sourceType: 'grpc',
        image: `registry.redhat.io/redhat/${name}-index:v4.14`,
        displayName: display,
        publisher: 'Red Hat',
        priority: -100,
      },
    });
  }
  let cv;
  try {
    cv = await installClusterVersion(client, {
      version: opts.version,
      channel: opts.channel,
      updateService: opts.updateService,
    });
    await createClusterOperators(client, { clusterVersion: cv, version: opts.version });
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 409)) throw err;
  }
  for (const role of ['master', 'worker']) {
    await create(PATHS.machineConfigs, {
      apiVersion: 'machineconfiguration.openshift.io/v1',
      kind: 'MachineConfig',
      metadata: { name: `00-${role}`, labels: { 'machineconfiguration.openshift.io/role': role } },
      spec: { config: { ignition: { version: '3.4.0' } } },
    });
    await create(PATHS.machineConfigPools, {
      apiVersion: 'machineconfiguration.openshift.io/v1',
      kind: 'MachineConfigPool',
      metadata: { name: role, labels: { [`pools.operator.machineconfiguration.openshift.io/${role}`]: '' } },
      spec: {
        machineConfigSelector: { matchLabels: { 'machineconfiguration.openshift.io/role': role } },
        nodeSelector: { matchLabels: { [`node-role.kubernetes.io/${role}`]: '' } },
        maxUnavailable: 1,
        paused: false,
      },
    });
  }
}
