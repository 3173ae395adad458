// The order of a stage's writes: its objects, then its hooks one at a time, as helm 3 runs hooks.
import { hookWeightOf } from '../core/annotations.js';
import type { PlanItem } from './types.js';

/**
 * helm's `releaseutil.InstallOrder` (helm.sh/helm/v3 v3.22.0 `pkg/releaseutil/kind_sorter.go`):
 * the kind order that breaks ties between hooks of the same weight and name. Kinds not listed come
 * after, by kind name.
 */
const INSTALL_ORDER: readonly string[] = [
  'PriorityClass',
  'Namespace',
  'NetworkPolicy',
  'ResourceQuota',
  'LimitRange',
  'PodSecurityPolicy',
  'PodDisruptionBudget',
  'ServiceAccount',
  'Secret',
  'SecretList',
  'ConfigMap',
  'StorageClass',
  'PersistentVolume',
  'PersistentVolumeClaim',
  'CustomResourceDefinition',
  'ClusterRole',
  'ClusterRoleList',
  'ClusterRoleBinding',
  'ClusterRoleBindingList',
  'Role',
  'RoleList',
  'RoleBinding',
  'RoleBindingList',
  'Service',
  'DaemonSet',
  'Pod',
  'ReplicationController',
  'ReplicaSet',
  'Deployment',
  'HorizontalPodAutoscaler',
  'StatefulSet',
  'Job',
  'CronJob',
  'IngressClass',
  'Ingress',
  'APIService',
];

/** A stage's items split for writing: `objects` together first, then each of `hooks` in turn. */
export interface StageWrites {
  /** Items that are no hooks, in their plan order: written together, as before. */
  objects: PlanItem[];
  /** Hooks (`groundwork.io/hook-weight`), in the order they are written and waited for one by one. */
  hooks: PlanItem[];
}

/**
 * Splits one stage's items into its objects and its hooks, and orders the hooks as helm 3.22's
 * `execHook` runs them: ascending `weight`, then name, then kind in helm's install order (helm
 * sorts by kind first, then stably by weight and name, so kind only breaks a tie of weight and
 * name; unknown kinds last, by kind name). Namespace and id break what is left, so the order is
 * total. Helm 4 orders kind before name; Groundwork follows the helm 3 it renders with.
 *
 * An item counts as a hook by its desired object's annotation; an item without a desired object
 * (a prune) is one of `objects`. Pure: the items are not copied or changed.
 */
export function stageWrites(items: readonly PlanItem[]): StageWrites {
  const objects: PlanItem[] = [];
  const hooks: { item: PlanItem; weight: number }[] = [];
  for (const item of items) {
    const weight = item.desired ? hookWeightOf(item.desired) : undefined;
    if (weight === undefined) objects.push(item);
    else hooks.push({ item, weight });
  }
  hooks.sort(
    (a, b) =>
      a.weight - b.weight ||
      compare(a.item.ref.name, b.item.ref.name) ||
      kindRank(a.item.ref.kind, b.item.ref.kind) ||
      compare(a.item.ref.namespace ?? '', b.item.ref.namespace ?? '') ||
      compare(a.item.id, b.item.id),
  );
  return { objects, hooks: hooks.map((h) => h.item) };
}

/** Go's string order (bytes), which `<` on JavaScript strings matches for ASCII names. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** helm's `lessByKind`: listed kinds by position, then unlisted kinds by name. */
function kindRank(a: string, b: string): number {
  const [ia, ib] = [INSTALL_ORDER.indexOf(a), INSTALL_ORDER.indexOf(b)];
  if (ia === -1 && ib === -1) return compare(a, b);
  if (ia === -1) return 1;
  if (ib === -1) return -1;
  return ia - ib;
}
