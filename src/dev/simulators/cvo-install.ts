import { createHash, randomUUID } from 'node:crypto';
import type { KubeClient } from '../../cluster/client.js';
import type { UpdateService } from './cincinnati.js';
import type { K8sObject } from '../../core/object.js';
import { PATHS, getOptional, objectPath } from './api.js';
import { systemClock, timestamp, type Clock } from './clock.js';
import { statusRelease, type StatusCondition, type StatusRelease } from './cvo-updates.js';
import { writeStatus } from './status.js';

/** Capabilities of a default 4.14 install (`cluster-state/*\/cv.yaml`). */
const CAPABILITIES_4_14 = [
  'Build',
  'CSISnapshot',
  'Console',
  'DeploymentConfig',
  'ImageRegistry',
  'Insights',
  'MachineAPI',
  'NodeTuning',
  'Storage',
  'baremetal',
  'marketplace',
  'openshift-samples',
] as const;

/** The ClusterOperators of a 4.14 cluster (`cluster-state/not-upgrading/co.yaml`). */
export const CLUSTER_OPERATORS_4_14 = [
  'authentication',
  'baremetal',
  'cloud-controller-manager',
  'cloud-credential',
  'cluster-autoscaler',
  'config-operator',
  'console',
  'control-plane-machine-set',
  'csi-snapshot-controller',
  'dns',
  'etcd',
  'image-registry',
  'ingress',
  'insights',
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler',
  'kube-storage-version-migrator',
  'machine-api',
  'machine-approver',
  'machine-config',
  'marketplace',
  'monitoring',
  'network',
  'node-tuning',
  'openshift-apiserver',
  'openshift-controller-manager',
  'openshift-samples',
  'operator-lifecycle-manager',
  'operator-lifecycle-manager-catalog',
  'operator-lifecycle-manager-packageserver',
  'service-ca',
  'storage',
] as const;

interface InstallClusterVersionOptions {
  /** @default 'version' */
  readonly name?: string;
  readonly version: string;
  /** Release image. @default the graph node's payload, else a made-up `quay.io/openshift-release-dev/ocp-release@sha256:…` */
  readonly image?: string;
  /** @default a random version-4 UUID */
  readonly clusterID?: string;
  /** `spec.channel`. @default none */
  readonly channel?: string;
  /** @default 'https://api.openshift.com/api/upgrades_info/v1/graph' */
  readonly upstream?: string;
  /** Where the release's image, URL and channels come from. */
  readonly updateService?: UpdateService;
  /** @default the system clock */
  readonly clock?: Clock;
}

/** `quay.io/openshift-release-dev/ocp-release@sha256:<digest>`, stable per version, for releases not in a graph. */
function madeUpReleaseImage(version: string): string {
  return `quay.io/openshift-release-dev/ocp-release@sha256:${createHash('sha256').update(version).digest('hex')}`;
}

/** The CVO's `versionHash` shape: 8 bytes, base64 (derived from the release image here). */
export function versionHash(image: string): string {
  return createHash('sha256').update(image).digest().subarray(0, 8).toString('base64');
}

/** The release the installer would write for `version`: from the graph when it has the node. */
function releaseFor(version: string, opts: { image?: string; updateService?: UpdateService }): StatusRelease {
  const node = opts.updateService?.release(version);
  const fromGraph = node ? statusRelease(node) : undefined;
  return {
    channels: fromGraph?.channels ?? [],
    image: opts.image ?? fromGraph?.image ?? madeUpReleaseImage(version),
    ...(fromGraph?.url ? { url: fromGraph.url } : {}),
    version,
  };
}

/**
 * Creates a ClusterVersion as an installed cluster has it (the shape of
 * `cluster-state/not-upgrading/cv.yaml`): spec with `clusterID`, `channel` and `upstream`; status
 * with one `Completed` history entry (`verified: false`, as installs are), `desired`, the 4.14
 * capabilities and the conditions the CVO writes at the end of an install. Available updates are
 * left to the CVO simulator's first pass.
 *
 * @example
 * await installClusterVersion(client, { version: '4.8.10', channel: 'stable-4.9', graph });
 */
export async function installClusterVersion(
  client: KubeClient,
  opts: InstallClusterVersionOptions,
): Promise<K8sObject> {
  const name = opts.name ?? 'version';
  const now = timestamp(opts.clock ?? systemClock);
  const release = releaseFor(opts.version, opts);
  const created = await client.request<K8sObject>('POST', PATHS.clusterVersions, {
    body: {
      apiVersion: 'config.openshift.io/v1',
      kind: 'ClusterVersion',
      metadata: { name },
      spec: {
        ...(opts.channel ? { channel: opts.channel } : {}),
        clusterID: opts.clusterID ?? randomUUID(),
        upstream: opts.upstream ?? 'https://api.openshift.com/api/upgrades_info/v1/graph',
      },
    },
  });
  const conditions: StatusCondition[] = [
    { lastTransitionTime: now, status: 'False', type: 'RetrievedUpdates' },
    {
      lastTransitionTime: now,
      message: 'Capabilities match configured spec',
      reason: 'AsExpected',
      status: 'False',
      type: 'ImplicitlyEnabledCapabilities',
    },
    {
      lastTransitionTime: now,
      message: `Payload loaded version="${release.version}" image="${release.image}" architecture="amd64"`,
      reason: 'PayloadLoaded',
      status: 'True',
      type: 'ReleaseAccepted',
    },
    {
      lastTransitionTime: now,
      message: `Done applying ${release.version}`,
      status: 'True',
      type: 'Available',
    },
    { lastTransitionTime: now, status: 'False', type: 'Failing' },
    {
      lastTransitionTime: now,
      message: `Cluster version is ${release.version}`,
      status: 'False',
      type: 'Progressing',
    },
  ];
  return writeStatus(client, objectPath(PATHS.clusterVersions, name), {
    availableUpdates: null,
    capabilities: { enabledCapabilities: [...CAPABILITIES_4_14], knownCapabilities: [...CAPABILITIES_4_14] },
    conditions,
    desired: release,
    history: [
      {
        completionTime: now,
        image: release.image,
        startedTime: now,
        state: 'Completed',
        verified: false,
        version: release.version,
      },
    ],
    observedGeneration: created.metadata.generation ?? 1,
    versionHash: versionHash(release.image),
  });
}

interface CreateClusterOperatorsOptions {
  /** The ClusterVersion that owns them (the CVO creates ClusterOperators from the release payload). */
  readonly clusterVersion: K8sObject;
  /** The release version every operator reports. */
  readonly version: string;
  /**
   * Real ClusterOperators to copy (e.g. `cluster-state/not-upgrading/co.yaml`): annotations,
   * conditions, related objects and version entries, with versions that start with the template's
   * own operator version moved to `version`. @default the 4.14 operator names, all healthy
   */
  readonly templates?: readonly K8sObject[];
  /** Only these operators. @default all of the templates (or the 4.14 names) */
  readonly names?: readonly string[];
  readonly clock?: Clock;
}

/**
 * Creates ClusterOperators owned by the ClusterVersion (controller reference, as the CVO sets it)
 * with their status, in the shape of real dumps (`conditions`, `extension: null`, `relatedObjects`,
 * `versions`). Existing ones get their status replaced. Returns the stored objects.
 */
export async function createClusterOperators(
  client: KubeClient,
  opts: CreateClusterOperatorsOptions,
): Promise<K8sObject[]> {
  const now = timestamp(opts.clock ?? systemClock);
  const templates = opts.templates ?? CLUSTER_OPERATORS_4_14.map((name) => defaultOperator(name));
  const wanted = opts.names ? templates.filter((t) => opts.names?.includes(t.metadata.name)) : templates;
  const cv = opts.clusterVersion;
  const out: K8sObject[] = [];
  for (const t of wanted) {
    const status = (t.status ?? {}) as {
      conditions?: StatusCondition[];
      relatedObjects?: unknown[];
      versions?: { name: string; version: string }[];
    };
    const own = status.versions?.find((v) => v.name === 'operator')?.version;
    const path = objectPath(PATHS.clusterOperators, t.metadata.name);
    if (!(await getOptional(client, path))) {
      await client.request('POST', PATHS.clusterOperators, {
        body: {
          apiVersion: 'config.openshift.io/v1',
          kind: 'ClusterOperator',
          metadata: {
            name: t.metadata.name,
            ...(t.metadata.annotations ? { annotations: t.metadata.annotations } : {}),
            ownerReferences: [
              {
                apiVersion: 'config.openshift.io/v1',
                controller: true,
                kind: 'ClusterVersion',
                name: cv.metadata.name,
                uid: cv.metadata.uid ?? '',
              },
            ],
          },
          spec: {},
        },
      });
    }
    out.push(
      await writeStatus(client, path, {
        conditions: (status.conditions ?? []).map((c) => ({ ...c, lastTransitionTime: now })),
        extension: null,
        relatedObjects: status.relatedObjects ?? [],
        versions: (status.versions ?? [{ name: 'operator', version: opts.version }]).map((v) => ({
          name: v.name,
          version: own && v.version.startsWith(own) ? opts.version + v.version.slice(own.length) : v.version,
        })),
      }),
    );
  }
  return out;
}

function defaultOperator(name: string): K8sObject {
  const cond = (type: string, status: string) => ({
    lastTransitionTime: '',
    message: 'All is well',
    reason: 'AsExpected',
    status,
    type,
  });
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterOperator',
    metadata: { name },
    status: {
      conditions: [
        cond('Degraded', 'False'),
        cond('Progressing', 'False'),
        cond('Available', 'True'),
        cond('Upgradeable', 'True'),
      ],
      relatedObjects: [],
      versions: [{ name: 'operator', version: '0.0.0' }],
    },
  };
}

/**
 * Sets one condition on a ClusterOperator (e.g. `Upgradeable=False`), as the operator itself would;
 * the transition time changes only when the status does.
 */
export async function setClusterOperatorCondition(
  client: KubeClient,
  name: string,
  condition: { type: string; status: 'True' | 'False' | 'Unknown'; reason?: string; message?: string },
  clock: Clock = systemClock,
): Promise<K8sObject> {
  const path = objectPath(PATHS.clusterOperators, name);
  const co = await client.request<K8sObject>('GET', path);
  const status = structuredClone((co.status ?? {}) as { conditions?: StatusCondition[] });
  const conditions = status.conditions ?? [];
  const i = conditions.findIndex((c) => c.type === condition.type);
  const previous = conditions[i];
  const next = {
    ...condition,
    lastTransitionTime:
      previous?.status === condition.status ? previous.lastTransitionTime : timestamp(clock),
  };
  if (i >= 0) conditions[i] = next;
  else conditions.push(next);
  return writeStatus(client, path, { ...status, conditions });
}
