import { z } from 'zod';
import { conditionsSchema, metadataSchema } from '../../core/cluster-object.js';
import type { K8sObject } from '../../core/object.js';

/** The annotation KWOK's `--manage-nodes-with-annotation-selector` picks the local cluster's nodes by. */
export const KWOK_NODE_ANNOTATION = 'kwok.x-k8s.io/node';

/** One simulated machine of the local cluster. Plain data; `nodeObject` makes the Node. */
export interface NodeSpec {
  readonly name: string;
  /** Roles, each a `node-role.kubernetes.io/<role>: ""` label (`worker`, `master`, `control-plane`). */
  readonly roles: readonly string[];
  /** Taints, as the installer sets them (a control plane's `NoSchedule`). */
  readonly taints: readonly { readonly key: string; readonly effect: 'NoSchedule' }[];
  /** More labels (OpenShift's `node.openshift.io/os_id`). */
  readonly labels?: Readonly<Record<string, string>>;
}

/** The nodes `clusterNodes` makes: how many of each. */
export interface ClusterNodesOptions {
  /** `openshift`: masters and workers as the MachineConfigPools select them. @default 'kubernetes' */
  readonly flavour?: 'kubernetes' | 'openshift';
  /** @default 2 */
  readonly workers?: number;
}

/**
 * The nodes of a local cluster, labelled and tainted as their installers do: for Kubernetes one
 * `control-plane` node (kubeadm's role label and `NoSchedule` taint) and `worker-<i>` nodes; for
 * OpenShift three masters (`node-role.kubernetes.io/master` and `control-plane`, the master
 * `NoSchedule` taint), which the `master` MachineConfigPool selects, and workers, which the `worker`
 * pool selects. Workers carry `node-role.kubernetes.io/worker` in both, so a Kubernetes cluster's
 * workers are in the `worker` pool when the OpenShift simulators run against it later. Pure.
 */
export function clusterNodes(opts: ClusterNodesOptions = {}): NodeSpec[] {
  const workers = Array.from({ length: opts.workers ?? 2 }, (_, i): NodeSpec => ({
    name: `worker-${i}`,
    roles: ['worker'],
    taints: [],
  }));
  if (opts.flavour === 'openshift') {
    const rhcos = { 'node.openshift.io/os_id': 'rhcos' };
    const masters = Array.from({ length: 3 }, (_, i): NodeSpec => ({
      name: `master-${i}`,
      roles: ['control-plane', 'master'],
      taints: [{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' }],
      labels: rhcos,
    }));
    return [...masters, ...workers.map((w) => ({ ...w, labels: rhcos }))];
  }
  const controlPlane: NodeSpec = {
    name: 'control-plane',
    roles: ['control-plane'],
    taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
    labels: { 'node.kubernetes.io/exclude-from-external-load-balancers': '' },
  };
  return [controlPlane, ...workers];
}

/**
 * The Node object of `spec`, the `index`-th node of its cluster, as a kubelet registers itself: the
 * well-known labels (`kubernetes.io/os`, `arch`, `hostname`), role labels, taints, a pod CIDR of its
 * own (`10.244.<index>.0/24`, kind's range, apart from the Service range), an internal address
 * (`172.18.0.<index + 2>`) and the capacity of a modest machine (4 CPUs, 16 GiB, 110 pods).
 * KWOK adds the conditions, node info and phase when it takes the node over (the annotation). Pure.
 */
export function nodeObject(spec: NodeSpec, index: number): K8sObject {
  const resources = { cpu: '4', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' };
  const cidr = `10.244.${index}.0/24`;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: spec.name,
      annotations: { [KWOK_NODE_ANNOTATION]: 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': spec.name,
        'kubernetes.io/os': 'linux',
        ...Object.fromEntries(spec.roles.map((r) => [`node-role.kubernetes.io/${r}`, ''])),
        ...spec.labels,
      },
    },
    spec: {
      podCIDR: cidr,
      podCIDRs: [cidr],
      ...(spec.taints.length ? { taints: spec.taints.map((t) => ({ ...t })) } : {}),
    },
    status: {
      capacity: resources,
      allocatable: { ...resources, cpu: '3800m', memory: '15Gi' },
      addresses: [
        { type: 'InternalIP', address: `172.18.0.${index + 2}` },
        { type: 'Hostname', address: spec.name },
      ],
    },
  };
}

/** The part of a NodeList the local control plane reads: names, labels, cordon and conditions. */
export const nodeListSchema = z.looseObject({
  items: z.array(
    z.looseObject({
      metadata: metadataSchema,
      spec: z.looseObject({ unschedulable: z.boolean().optional() }).optional(),
      status: z.looseObject({ conditions: conditionsSchema }).optional(),
    }),
  ),
});

/** Whether a listed node's `Ready` condition is True. Pure. */
export function nodeReady(node: z.infer<typeof nodeListSchema>['items'][number]): boolean {
  return node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}
