import type { ResourceInfo } from '../cluster/discovery.js';
import { splitApiVersion, type K8sObject } from '../core/object.js';

/** One PolicyRule of a (Cluster)Role. */
export interface PolicyRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
  resourceNames?: string[];
}

const MANAGE = ['get', 'list', 'watch', 'create', 'patch', 'update', 'delete'];
const READ = ['get', 'list', 'watch'];

/**
 * What the agent itself needs besides the platform's kinds: reading what health and waits look at,
 * approving InstallPlans, stepping the ClusterVersion, pausing pools, and recording Events.
 */
export const AGENT_CLUSTER_RULES: readonly PolicyRule[] = [
  { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: READ },
  { apiGroups: ['operators.coreos.com'], resources: ['installplans'], verbs: [...READ, 'patch'] },
  {
    apiGroups: ['operators.coreos.com'],
    resources: ['clusterserviceversions', 'subscriptions', 'catalogsources'],
    verbs: READ,
  },
  { apiGroups: ['packages.operators.coreos.com'], resources: ['packagemanifests'], verbs: READ },
  { apiGroups: ['config.openshift.io'], resources: ['clusterversions'], verbs: [...READ, 'patch'] },
  { apiGroups: ['config.openshift.io'], resources: ['clusteroperators'], verbs: READ },
  {
    apiGroups: ['machineconfiguration.openshift.io'],
    resources: ['machineconfigpools'],
    verbs: [...READ, 'patch'],
  },
  { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create', 'patch', 'update'] },
];

/** What the agent needs in its own namespace: its lease, status object, inventory and credentials. */
export const AGENT_NAMESPACE_RULES: readonly PolicyRule[] = [
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] },
  {
    apiGroups: ['groundwork.io'],
    resources: ['platformsyncs', 'platformsyncs/status'],
    verbs: [...READ, 'create', 'patch', 'update'],
  },
  { apiGroups: [''], resources: ['configmaps'], verbs: [...READ, 'create', 'patch', 'update'] },
  { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
];

/**
 * Least-privilege cluster rules for a platform: full management (get, list, watch, create, patch,
 * update, delete) of exactly the resources its manifests use — cluster-wide, since the agent
 * lists, watches and prunes them across namespaces — then the agent's own needs. Rules are merged
 * per API group and sorted, so the same platform always yields the same ClusterRole. Pure.
 */
export function platformRules(
  manifests: readonly K8sObject[],
  resourceOf: (apiVersion: string, kind: string) => ResourceInfo | undefined,
): PolicyRule[] {
  const byGroup = new Map<string, Set<string>>();
  for (const m of manifests) {
    const info = resourceOf(m.apiVersion, m.kind);
    // Operands of operators not installed yet are not served: guess the plural as Kubernetes does.
    const group = info?.group ?? splitApiVersion(m.apiVersion).group;
    const resource = info?.resource ?? guessPlural(m.kind);
    byGroup.set(group, (byGroup.get(group) ?? new Set()).add(resource));
  }
  const managed: PolicyRule[] = [...byGroup]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([group, resources]) => ({ apiGroups: [group], resources: [...resources].sort(), verbs: MANAGE }));
  return [...managed, ...AGENT_CLUSTER_RULES];
}

/** The plural resource name Kubernetes' default RESTMapper derives from a kind (`ArgoCD` → `argocds`, `Policy` → `policies`). */
export function guessPlural(kind: string): string {
  const k = kind.toLowerCase();
  if (/[^aeiou]y$/.test(k)) return `${k.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(k)) return `${k}es`;
  return `${k}s`;
}
